import { render } from "solid-js/web";
import { GetTimeApp } from "./GetTimeApp";

render(() => <GetTimeApp />, document.getElementById("app")!);

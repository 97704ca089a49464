// What `import … from "@miniapp/sdk"` resolves to in a build: the SDK already in the page,
// never a second copy.
const sdk = (globalThis as any)[Symbol.for("miniapp.sdk")];
if (!sdk) throw new Error("@miniapp/sdk: the SDK is not in the page; build the app with bundle build");

export const connect = sdk.connect;
export const openLink = sdk.openLink;
export const openChat = sdk.openChat;
export const sendMessage = sdk.sendMessage;
export const updateModelContext = sdk.updateModelContext;
export const getAuthToken = sdk.getAuthToken;
export const registerTool = sdk.registerTool;
export const setContext = sdk.setContext;
export const onToolInput = sdk.onToolInput;
export const onToolInputPartial = sdk.onToolInputPartial;
export const onToolResult = sdk.onToolResult;
export const onToolCancelled = sdk.onToolCancelled;
export const onHostContext = sdk.onHostContext;
export const onTeardown = sdk.onTeardown;
export const hostContext = sdk.hostContext;
export const documentId: string = sdk.documentId;
export default sdk;

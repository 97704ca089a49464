export default "{curlies}";

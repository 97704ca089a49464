export default '{curlies}'

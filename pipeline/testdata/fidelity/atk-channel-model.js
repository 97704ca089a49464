// An app's own class named as a platform one: a chat's channel of messages.
export class MessageChannel {
  constructor(name = "general") {
    this.name = name;
    this.messages = [];
  }
}

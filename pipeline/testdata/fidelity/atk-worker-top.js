self.topThis = typeof this;

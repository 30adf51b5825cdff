enum DemoServerTestSupport {}

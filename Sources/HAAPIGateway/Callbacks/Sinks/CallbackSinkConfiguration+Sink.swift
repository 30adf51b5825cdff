extension CallbackSinkConfiguration {
    /// The sink this entry of `callbacks.sinks` configures.
    var sink: any CallbackSink {
        switch self {
        case .file(let path): FileCallbackSink(path: path)
        case .webhook(let url, let secret, let previous): WebhookCallbackSink(url: url, secret: secret, previousSecret: previous)
        case .exec(let program): ExecCallbackSink(program: program)
        }
    }
}

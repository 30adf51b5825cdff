import Foundation

/// The resolved, validated configuration of the gateway: plain values with defaults that run as shipped
/// (loopback, port 8080, the embedded demo upstream, templates from the repository's `templates/`).
///
/// Loading (file, environment, flags) and validation produce this value; everything else only reads it.
public struct GatewayConfiguration: Sendable {
    /// Where the gateway listens and how browsers reach it.
    public var server: ServerSettings
    /// The HAAPI server the gateway signs people in with.
    public var upstream: UpstreamSettings
    /// Browser sessions: lifetimes and the cap.
    public var sessions: SessionSettings
    /// Where templates come from.
    public var templates: TemplateSettings
    /// Where the token model goes once a sign-in completes (several allowed).
    public var callbacks: [CallbackSinkConfiguration]
    /// Which ID-token and userinfo claims the outcome of a sign-in carries.
    public var outcome = OutcomeSettings()
    /// What the person sees at the end and around cancelling.
    public var completion: CompletionSettings
    /// Polling steps.
    public var polling: PollingSettings
    /// Retries of failed callback deliveries.
    public var callbackDelivery: CallbackDeliverySettings
    /// What is logged.
    public var logging: LoggingSettings
    /// Kiosk mode (a shared screen that resets itself).
    public var kiosk = KioskSettings()
    /// How pages look (product name, logo, colours).
    public var theme = ThemeSettings()
    /// The Prometheus metrics listener.
    public var metrics = MetricsSettings()
    /// The RFC 8628 device authorization endpoint and its device clients (off by default).
    public var devices = DeviceSettings()
    /// Signed start links (off unless a secret is configured).
    public var startLinks = StartLinkSettings()
    /// OpenTelemetry tracing (off unless a collector is configured).
    public var tracing = TracingSettings()
    /// Single sign-in mode (`haapi-gateway login`); `nil` serves sign-ins to any browser (not from configuration files).
    public var pairing: PairingSettings? = nil

    /// Creates a configuration; every part has a default that runs as shipped.
    /// - Parameters:
    ///   - server: Where the gateway listens.
    ///   - upstream: The HAAPI server (the embedded demo by default).
    ///   - sessions: Session lifetimes and cap.
    ///   - templates: Template directories.
    ///   - callbacks: Token callback sinks.
    ///   - completion: End-of-flow behaviour.
    ///   - polling: Polling behaviour.
    ///   - callbackDelivery: Retries of failed callback deliveries.
    ///   - logging: What is logged.
    public init(
        server: ServerSettings = .init(),
        upstream: UpstreamSettings = .demo(.init()),
        sessions: SessionSettings = .init(),
        templates: TemplateSettings = .init(),
        callbacks: [CallbackSinkConfiguration] = [],
        completion: CompletionSettings = .init(),
        polling: PollingSettings = .init(),
        callbackDelivery: CallbackDeliverySettings = .init(),
        logging: LoggingSettings = .init()
    ) {
        self.server = server
        self.upstream = upstream
        self.sessions = sessions
        self.templates = templates
        self.callbacks = callbacks
        self.completion = completion
        self.polling = polling
        self.callbackDelivery = callbackDelivery
        self.logging = logging
    }
}

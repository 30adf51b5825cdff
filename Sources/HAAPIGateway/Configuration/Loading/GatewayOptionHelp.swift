import Foundation

/// The help of the options `serve`, `check-config`, `doctor`, `render` and the host tools share (``ConfigurationFlags``
/// says what they set): `--help` prints these.
public enum GatewayOptionHelp {
    public static let configFile =
        "YAML configuration file (default: $HAAPI_GATEWAY_CONFIG; for login, token, keep, logout, the credential helpers and proxy else $XDG_CONFIG_HOME/haapi-gateway/config.yaml when present; else built-in defaults). Every key is explained in config/haapi-gateway.yaml."
    public static let host = "Address to bind (\(ConfigurationKey.serverHost.path), default 127.0.0.1)."
    public static let port = "Port to bind; 0 picks a free port (\(ConfigurationKey.serverPort.path), default 8080)."
    public static let publicURL = "The origin browsers use; https enables Secure/__Host- cookies (\(ConfigurationKey.serverPublicURL.path))."
    public static let upstream =
        "The upstream HAAPI server's issuer (\(ConfigurationKey.upstreamBaseURL.path)): for Curity its anonymous endpoint, https://<base-url>/oauth/v2/oauth-anonymous. Without it the embedded demo server is used."
    public static let clientID = "OAuth client id at the upstream (\(ConfigurationKey.upstreamClientID.path))."
    public static let clientSecret =
        "Client secret (\(ConfigurationKey.upstreamClientSecret.path)). Visible to other users in the process list: prefer --client-secret-file or \(ConfigurationKey.upstreamClientSecret.environmentName)."
    public static let clientSecretFile =
        "File holding the client secret (\(ConfigurationKey.upstreamClientSecretFile.path)); or set \(ConfigurationKey.upstreamClientSecret.environmentName)."
    public static let redirectURI = "The client's registered redirect URI (\(ConfigurationKey.upstreamRedirectURI.path), default haapi:start)."
    public static let callbacks =
        "Where each outcome goes: file:PATH, exec:PROGRAM or an https:// webhook (\(ConfigurationKey.callbacksSinks.path); repeatable, replaces the file's list)."
    public static let webhookSecretFile = "File holding the webhook signing secret (\(ConfigurationKey.callbacksWebhookSecretFile.path))."
    public static let templates = "Templates directory used instead of the built-in templates (\(ConfigurationKey.templatesDirectory.path))."
    public static let templateOverrides =
        "Directory of templates layered over the defaults, file by file (\(ConfigurationKey.templatesOverrideDirectory.path))."
    public static let demoNonce = "Make the embedded demo upstream require DPoP nonces (\(ConfigurationKey.demoRequireDPoPNonce.path))."
    public static let demoStrict =
        "Run the embedded demo upstream in its strict mode: DPoP nonces per key, token-bound codes, a stickiness cookie (\(ConfigurationKey.demoStrict.path))."
    public static let logLevel = "trace, debug, info, notice, warning, error or critical (\(ConfigurationKey.loggingLevel.path))."
    public static let config = "A configuration file whose templates and theme sections apply (flags and HAAPI_GATEWAY_* variables win as for serve)."
    public static let output =
        "Write DIR/index.html and DIR/assets/ (stylesheet, theme.css, scripts, logo) instead of printing the page, so it can be opened styled, e.g. with python3 -m http.server -d DIR."
    public static let renderTemplates = "Templates directory used instead of the built-in templates."
    public static let renderTemplateOverrides = "Directory of templates layered over the defaults, file by file."
    public static let locale = "Language of the gateway's own texts (a tag such as sv, or an Accept-Language value); default en."
}

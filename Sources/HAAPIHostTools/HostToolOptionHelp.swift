import HAAPIGateway

/// The help of the host tools' own options (`proxy`, `keep`, `setup-git`, the token file and the device client's):
/// `--help` prints these, beside the types that say what the options mean.
public enum HostToolOptionHelp {
    public static let to =
        "Where requests go: an origin, with a base path if wanted (https://api.example.com/v1); https, or plain http to a loopback address."
    public static let listen = "Where the proxy listens: ADDRESS:PORT on loopback (127.0.0.1, ::1 or localhost; port 0 picks a free one)."
    public static let minimumValidSeconds = "Refresh first when the access token expires within this many seconds."
    public static let stopSeconds = "After SIGTERM or SIGINT, how long requests under way may take to end before the proxy exits 70 (1 to 600)."
    public static let via =
        "A central haapi-gateway to sign in through as a device client (RFC 8628) instead of starting a local one: its URL (https; http only on a loopback address)."
    public static let deviceClient = "The device client's id at the central gateway (with --via)."
    public static let deviceClientSecretFile = "File holding the device client's secret (with --via); without it the device is a public client."
    public static let hook = "A program run after each refresh (no arguments; HAAPI_GATEWAY_TOKEN_FILE names the file)."
    public static let once = "Refresh once now and exit."
    public static let host = "The git server: host, host:port or https://host[:port] (http:// for a loopback host only)."
    public static let tokenFile = "The token file (default: $XDG_CONFIG_HOME/haapi-gateway/tokens.json, else ~/.config/haapi-gateway/tokens.json)."
}

import Foundation

/// The directory of the host-side commands (`login`, `token`, `keep`, `logout`, the credential helpers, `proxy`):
/// `$XDG_CONFIG_HOME/haapi-gateway` (an absolute `XDG_CONFIG_HOME`, as the XDG Base Directory Specification requires),
/// else `~/.config/haapi-gateway`. It holds the token file and, when the user writes one, their configuration file.
public enum HostDirectory {
    /// The directory's path.
    public static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return base + "/haapi-gateway"
    }

    /// The user's configuration file, `config.yaml` in the directory, when it exists: the host-side commands read it
    /// when neither `--config` nor `$HAAPI_GATEWAY_CONFIG` names one.
    public static func configurationFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let file = path(environment: environment) + "/config.yaml"
        return FileManager.default.fileExists(atPath: file) ? file : nil
    }
}

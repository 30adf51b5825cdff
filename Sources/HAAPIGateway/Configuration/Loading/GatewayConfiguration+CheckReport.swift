import Foundation

extension GatewayConfiguration {
    /// What `check-config` prints for a valid configuration read from `file`: that it is OK, the effective
    /// configuration (``summary``, secrets redacted) and the settings the file changed from the defaults, one per line.
    public func checkReport(file: String) -> String {
        var lines = ["\(file): configuration OK"] + summary.map { "  \($0)" }
        let changed = settingsChangedFromDefaults
        if !changed.isEmpty { lines += ["  settings changed from the defaults:"] + changed.map { "    \($0)" } }
        return lines.joined(separator: "\n")
    }
}

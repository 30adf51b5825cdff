/// The configuration reference, `docs/configuration.md`, written from the settings' declarations
/// (``ConfigurationKey/all``): `haapi-gateway check-config --reference` prints it, and a test fails when the file in the
/// repository differs.
public enum ConfigurationReference {
    /// The whole reference as Markdown.
    public static var markdown: String {
        var lines = [
            "# Configuration reference",
            "",
            "Every setting of haapi-gateway: its environment variable, type, default, the values it allows and when a change",
            "takes effect. This page is generated from the settings' declarations",
            "(`Sources/HAAPIGateway/Configuration/Loading/ConfigurationKey+Catalogue.swift`) by",
            "`haapi-gateway check-config --reference > docs/configuration.md`, and a test fails when the two differ.",
            "[`config/haapi-gateway.yaml`](../config/haapi-gateway.yaml) explains each setting at length, with examples;",
            "[running.md](running.md) says how the file, the environment and the flags combine.",
            "",
            "- **Reload**: *at once* means SIGHUP applies the new value to the requests that follow; *restart* means the",
            "  running value stays until the gateway restarts, and the reload says so.",
            "- **Default**: — means not set. A secret's value is never shown; a file of keys or certificates is shown as a",
            "  fingerprint of what was read.",
            "- **Environment**: lists are separated by commas; `\(ConfigurationKey.devicesClients.path)` is a JSON array of objects with string",
            "  members.",
        ]
        for section in ConfigurationKey.sections {
            lines += [
                "",
                "## \(section)",
                "",
                "| setting | what it does | type | default | reload |",
                "|---|---|---|---|---|",
            ]
            for key in ConfigurationKey.all where key.section == section {
                let name = "`\(key.path)`<br>`\(key.environmentName)`"
                let type = typeText(key)
                let value = key.defaultValue.map { "`\($0)`" } ?? "—"
                let reload = key.reload.waitsForRestart ? "restart" : "at once"
                lines.append("| \(name) | \(escaped(key.summary)) | \(type) | \(escaped(value)) | \(reload) |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func typeText(_ key: ConfigurationKey) -> String {
        let base: String =
            switch key.kind {
            case .string: "text"
            case .integer: "whole number"
            case .boolean: "true or false"
            case .list: "list"
            case .records: "list of records"
            }
        var text = key.isSecret ? "secret " + base : base
        if let range = key.range { text += ", \(range.lowerBound) to \(range.upperBound)" }
        return text
    }

    /// A cell's text with the table's own separator escaped.
    private static func escaped(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
}

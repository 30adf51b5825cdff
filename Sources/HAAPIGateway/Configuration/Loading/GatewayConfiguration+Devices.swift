import Crypto
import Foundation
import HAAPI

extension GatewayConfiguration {
    /// The `devices` section: the device authorization endpoint's settings and its clients, each `{id, name,
    /// secretFile, receivesDPoPKey}` (`secretFile` optional: RFC 8628 §3.1 allows public clients; `receivesDPoPKey`
    /// `true` or `false`, default false).
    static func resolveDevices(_ reader: inout ConfigurationReader) -> DeviceSettings {
        var devices = DeviceSettings()
        let defaults = DeviceSettings()
        devices.enabled = reader.boolean(.devicesEnabled, default: defaults.enabled)
        devices.codeLifetimeSeconds = reader.integer(.devicesCodeLifetimeSeconds, default: defaults.codeLifetimeSeconds)
        devices.pollIntervalSeconds = reader.integer(.devicesPollIntervalSeconds, default: defaults.pollIntervalSeconds)
        devices.maximumWrongCodesPerAddress = reader.integer(
            .devicesMaximumWrongCodesPerAddress,
            default: defaults.maximumWrongCodesPerAddress
        )
        devices.maximumWrongCodes = reader.integer(.devicesMaximumWrongCodes, default: defaults.maximumWrongCodes)
        devices.wrongCodeWindowSeconds = reader.integer(.devicesWrongCodeWindowSeconds, default: defaults.wrongCodeWindowSeconds)
        devices.maximumEntriesPerCode = reader.integer(.devicesMaximumEntriesPerCode, default: defaults.maximumEntriesPerCode)
        devices.maximumPendingAuthorizations = reader.integer(
            .devicesMaximumPendingAuthorizations,
            default: defaults.maximumPendingAuthorizations
        )
        devices.maximumPendingPerAddress = reader.integer(
            .devicesMaximumPendingPerAddress,
            default: defaults.maximumPendingPerAddress
        )
        if reader.isSet(.devicesRefreshTokenKeyFile), let text = reader.secretFile(.devicesRefreshTokenKeyFile) {
            // One key per line, the sealing one first (a rotation puts a new line first and keeps the old ones a while).
            let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if let short = lines.firstIndex(where: { $0.utf8.count < 32 }) {
                reader.problem(
                    .devicesRefreshTokenKeyFile,
                    "line \(short + 1): each line must hold at least 32 characters of random text (such as `openssl rand -hex 32`)"
                )
            } else {
                // Each line's text, whatever its encoding, is condensed into a 256-bit AES key.
                devices.refreshTokenKeys = lines.map { Data(SHA256.hash(data: Data($0.utf8))) }
            }
        }
        devices.clients = resolveDeviceClients(&reader)
        guard devices.enabled else {
            if !devices.clients.isEmpty { reader.problem(.devicesClients, "are registered, but \(ConfigurationKey.devicesEnabled.path) is not true") }
            return devices
        }
        if devices.clients.isEmpty {
            reader.problem(.devicesEnabled, "is true, but \(ConfigurationKey.devicesClients.path) registers no device client")
        }
        return devices
    }

    private static func resolveDeviceClients(_ reader: inout ConfigurationReader) -> [DeviceClient] {
        let key = ConfigurationKey.devicesClients
        var clients: [DeviceClient] = []
        var seen: Set<String> = []
        for (index, record) in (reader.records(key) ?? []).enumerated() {
            let entry = "entry \(index + 1)" + (record.line.map { " (line \($0))" } ?? "")
            for name in record.fields.keys.sorted() where !["id", "name", "secretFile", "receivesDPoPKey"].contains(name) {
                reader.problem(key, "\(entry): unknown field '\(name)' (a device client has id, name, secretFile and receivesDPoPKey)")
            }
            guard let id = record.fields["id"], !id.isEmpty else {
                reader.problem(key, "\(entry): needs an id (the client_id the device sends)")
                continue
            }
            // RFC 6749 Appendix A.1: client_id = *VSCHAR (printable ASCII).
            guard id.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }), id.count <= 128 else {
                reader.problem(key, "\(entry): the id must be printable ASCII of at most 128 characters")
                continue
            }
            guard seen.insert(id).inserted else {
                reader.problem(key, "\(entry): the id '\(id)' is registered twice")
                continue
            }
            let name = record.fields["name"] ?? ""
            if name.trimmingCharacters(in: .whitespaces).isEmpty {
                reader.problem(key, "\(entry) ('\(id)'): needs a name (what the person is shown on the verification page)")
            }
            var secret: String?
            if let file = record.fields["secretFile"] {
                let url = reader.filePath(file, within: key)
                guard let text = FileManager.default.contents(atPath: url.path).flatMap({ String(data: $0, encoding: .utf8) }) else {
                    reader.problem(
                        key,
                        "\(entry) ('\(id)'): cannot read the secret file \(url.path)\(FileAccess.reason(reading: url.path).map { ": \($0)" } ?? "")",
                        unreadableInput: true
                    )
                    continue
                }
                secret = String(text.reversed().drop { $0 == "\n" || $0 == "\r" }.reversed())
                if (secret ?? "").utf8.count < 16 {
                    reader.problem(key, "\(entry) ('\(id)'): the secret in \(url.path) must be at least 16 characters")
                }
            }
            var receivesDPoPKey = false
            switch record.fields["receivesDPoPKey"]?.lowercased() {
            case nil, "false": break
            case "true": receivesDPoPKey = true
            case let other?:
                reader.problem(key, "\(entry) ('\(id)'): receivesDPoPKey must be true or false, not '\(other)'")
            }
            clients.append(DeviceClient(id: id, name: name, secret: secret, receivesDPoPKey: receivesDPoPKey))
        }
        return clients
    }
}

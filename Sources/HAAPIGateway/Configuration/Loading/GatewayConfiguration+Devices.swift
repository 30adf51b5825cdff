import Crypto
import Foundation
import HAAPI

extension GatewayConfiguration {
    /// The `devices` section: the device authorization endpoint's settings and its clients, each `{id, name,
    /// secretFile}` (`secretFile` optional: RFC 8628 §3.1 allows public clients).
    static func resolveDevices(_ reader: inout ConfigurationReader) -> DeviceSettings {
        var devices = DeviceSettings()
        let defaults = DeviceSettings()
        devices.enabled = reader.boolean("devices.enabled", default: defaults.enabled)
        devices.codeLifetimeSeconds = reader.integer("devices.codeLifetimeSeconds", in: 60...3600, default: defaults.codeLifetimeSeconds)
        devices.pollIntervalSeconds = reader.integer("devices.pollIntervalSeconds", in: 1...60, default: defaults.pollIntervalSeconds)
        devices.maximumWrongCodesPerAddress = reader.integer(
            "devices.maximumWrongCodesPerAddress", in: 1...10_000, default: defaults.maximumWrongCodesPerAddress)
        devices.maximumWrongCodes = reader.integer("devices.maximumWrongCodes", in: 1...1_000_000, default: defaults.maximumWrongCodes)
        devices.wrongCodeWindowSeconds = reader.integer("devices.wrongCodeWindowSeconds", in: 1...86_400, default: defaults.wrongCodeWindowSeconds)
        devices.maximumEntriesPerCode = reader.integer("devices.maximumEntriesPerCode", in: 1...100, default: defaults.maximumEntriesPerCode)
        devices.maximumPendingAuthorizations = reader.integer(
            "devices.maximumPendingAuthorizations", in: 1...10_000_000, default: defaults.maximumPendingAuthorizations)
        if reader.isSet("devices.refreshTokenKeyFile"), let key = reader.secretFile("devices.refreshTokenKeyFile") {
            if key.utf8.count < 32 {
                reader.problem("devices.refreshTokenKeyFile", "must hold at least 32 characters of random text (such as `openssl rand -hex 32`)")
            } else {
                // The file's text, whatever its encoding, is condensed into a 256-bit AES key.
                devices.refreshTokenKey = Data(SHA256.hash(data: Data(key.utf8)))
            }
        }
        devices.clients = resolveDeviceClients(&reader)
        guard devices.enabled else {
            if !devices.clients.isEmpty { reader.problem("devices.clients", "are registered, but devices.enabled is not true") }
            return devices
        }
        if devices.clients.isEmpty {
            reader.problem("devices.enabled", "is true, but devices.clients registers no device client")
        }
        return devices
    }

    private static func resolveDeviceClients(_ reader: inout ConfigurationReader) -> [DeviceClient] {
        let key = "devices.clients"
        var clients: [DeviceClient] = []
        var seen: Set<String> = []
        for (index, record) in (reader.records(key) ?? []).enumerated() {
            let entry = "entry \(index + 1)" + (record.line.map { " (line \($0))" } ?? "")
            for name in record.fields.keys.sorted() where !["id", "name", "secretFile"].contains(name) {
                reader.problem(key, "\(entry): unknown field '\(name)' (a device client has id, name and secretFile)")
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
                    reader.problem(key, "\(entry) ('\(id)'): cannot read the secret file \(url.path)", unreadableInput: true)
                    continue
                }
                secret = String(text.reversed().drop { $0 == "\n" || $0 == "\r" }.reversed())
                if (secret ?? "").utf8.count < 16 {
                    reader.problem(key, "\(entry) ('\(id)'): the secret in \(url.path) must be at least 16 characters")
                }
            }
            clients.append(DeviceClient(id: id, name: name, secret: secret))
        }
        return clients
    }
}

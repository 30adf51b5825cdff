import Foundation
import HAAPI
import HAAPIGateway

/// Who the device is at the central gateway: the id of a device client registered there, and its secret when it has
/// one (RFC 8628 allows public clients, which send only their id).
///
/// ``description`` never shows the secret.
public struct DeviceClientCredentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The device client's id at the gateway.
    public let clientID: String
    /// The client secret, if the device client has one.
    public let secret: String?

    /// Creates credentials.
    /// - Parameters:
    ///   - clientID: The device client's id at the gateway.
    ///   - secret: Its secret; `nil` for a public client.
    public init(clientID: String, secret: String?) {
        self.clientID = clientID
        self.secret = secret
    }

    /// Credentials with the secret read from `secretFile` (its trailing newlines dropped), or a public client without one.
    /// - Parameters:
    ///   - clientID: The device client's id at the gateway.
    ///   - secretFile: The file holding the secret, if any.
    /// - Throws: ``DeviceClientError`` (configuration) for an empty id, or a secret file that cannot be read or is empty.
    public static func load(clientID: String, secretFile: String?) throws(DeviceClientError) -> DeviceClientCredentials {
        guard !clientID.trimmingCharacters(in: .whitespaces).isEmpty else { throw .configuration("the device client id must not be empty") }
        guard let secretFile else { return DeviceClientCredentials(clientID: clientID, secret: nil) }
        guard let data = FileManager.default.contents(atPath: secretFile), let text = String(data: data, encoding: .utf8) else {
            throw .configuration("cannot read the device client secret file \(secretFile)")
        }
        let secret = String(text.reversed().drop { $0 == "\n" || $0 == "\r" }.reversed())
        guard !secret.isEmpty else { throw .configuration("the device client secret file \(secretFile) is empty") }
        return DeviceClientCredentials(clientID: clientID, secret: secret)
    }

    /// The client authentication to use at a gateway that accepts `supportedMethods` (RFC 8414
    /// `token_endpoint_auth_methods_supported`; `nil` when its metadata does not say): with a secret HTTP Basic
    /// (`client_secret_basic`), else `client_secret_post` when that is all it accepts; without one only the client id
    /// (`none`).
    /// - Throws: ``DeviceClientError`` (unsupported) when the gateway lists no method these credentials can use.
    public func authentication(supportedMethods: [String]?) throws(DeviceClientError) -> ClientAuthentication {
        guard let secret else {
            guard supportedMethods?.contains("none") ?? true else {
                throw .unsupported(
                    "the gateway does not accept device clients without a secret (its metadata lists no \"none\" authentication); give --device-client-secret-file"
                )
            }
            return .none
        }
        guard let supportedMethods, !supportedMethods.contains("client_secret_basic") else { return .secretBasic(secret) }
        guard supportedMethods.contains("client_secret_post") else {
            throw .unsupported(
                "the gateway accepts neither client_secret_basic nor client_secret_post (its metadata lists \(supportedMethods.joined(separator: ", ")))"
            )
        }
        return .secretPost(secret)
    }

    /// The client id and whether there is a secret; never the secret.
    public var description: String { "DeviceClientCredentials(clientID: \(clientID), secret: \(secret == nil ? "none" : SecretRedaction.marker))" }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// No members, so that `dump` shows ``description`` alone and no secret.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

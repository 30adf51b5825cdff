import ArgumentParser
import HAAPIHostTools

/// `--via`, `--device-client` and `--device-client-secret-file`, shared by `login`, `keep`, `logout` and the commands of
/// ``HostTokenOptions``: use a central gateway as a device client (RFC 8628) instead of a local gateway and its upstream,
/// as ``DeviceClientFlags`` (which checks them).
struct DeviceClientOptions: ParsableArguments {
    @Option(help: .valued("url", "A central haapi-gateway to sign in through as a device client (RFC 8628) instead of starting a local one: its URL (https; http only on a loopback address)."))
    var via: String?
    @Option(name: .customLong("device-client"), help: .valued("id", "The device client's id at the central gateway (with --via)."))
    var deviceClient: String?
    @Option(name: .customLong("device-client-secret-file"), help: .valued("file", "File holding the device client's secret (with --via); without it the device is a public client."))
    var deviceClientSecretFile: String?

    /// The flags given.
    var flags: DeviceClientFlags { DeviceClientFlags(via: via, deviceClient: deviceClient, deviceClientSecretFile: deviceClientSecretFile) }

    func validate() throws {
        do { try flags.validate() } catch { throw ValidationError(error.message) }
    }

    /// Refuses the local gateway's options with `--via` (``DeviceClientFlags/validate(against:)``).
    func validate(against options: ConfigurationOptions) throws {
        do { try flags.validate(against: options.flags) } catch { throw ValidationError(error.message) }
    }
}

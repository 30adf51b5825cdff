import ArgumentParser
import HAAPIHostTools

/// `--via`, `--device-client` and `--device-client-secret-file`, shared by `login`, `keep`, `logout` and the commands of
/// ``HostTokenOptions``: use a central gateway as a device client (RFC 8628) instead of a local gateway and its upstream,
/// as ``DeviceClientFlags`` (which checks them).
struct DeviceClientOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A central haapi-gateway to sign in through as a device client (RFC 8628) instead of starting a local one: its URL (https; http only on a loopback address).", valueName: "url"))
    var via: String?
    @Option(name: .customLong("device-client"), help: ArgumentHelp("The device client's id at the central gateway (with --via).", valueName: "id"))
    var deviceClient: String?
    @Option(name: .customLong("device-client-secret-file"), help: ArgumentHelp("File holding the device client's secret (with --via); without it the device is a public client.", valueName: "file"))
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

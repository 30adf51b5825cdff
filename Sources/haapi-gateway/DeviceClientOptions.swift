import ArgumentParser
import HAAPIHostTools

/// `--via`, `--device-client` and `--device-client-secret-file`, shared by `login`, `keep`, `logout` and the commands of
/// ``HostTokenOptions``: use a central gateway as a device client (RFC 8628) instead of a local gateway and its upstream,
/// as ``DeviceClientFlags`` (which checks them).
struct DeviceClientOptions: ParsableArguments {
    @Option(help: .valued("url", HostToolOptionHelp.via))
    var via: String?
    @Option(name: .customLong("device-client"), help: .valued("id", HostToolOptionHelp.deviceClient))
    var deviceClient: String?
    @Option(name: .customLong("device-client-secret-file"), help: .valued("file", HostToolOptionHelp.deviceClientSecretFile))
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

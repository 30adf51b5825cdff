import Foundation
import HAAPIGateway

extension ConfigurationFlags {
    /// The configuration a host-side command (`login`, `token`, `keep`, `logout`, the credential helpers, `proxy`) uses:
    /// as ``ConfigurationFlags/load(environment:userFile:)``, with the user's own configuration file
    /// (``HostDirectory/configurationFile(environment:)``) when neither `--config` nor `$HAAPI_GATEWAY_CONFIG` names one.
    public func loadForHost(environment: [String: String] = ProcessInfo.processInfo.environment) throws(ConfigurationError) -> GatewayConfiguration {
        try load(environment: environment, userFile: HostDirectory.configurationFile(environment: environment))
    }
}

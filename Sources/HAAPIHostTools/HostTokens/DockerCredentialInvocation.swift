/// The executable run as `docker-credential-haapi-gateway` (a symlink to it, the name Docker runs for the `credHelpers`
/// value `haapi-gateway`): its arguments are those of `haapi-gateway docker-credential`.
public enum DockerCredentialInvocation {
    /// The name Docker runs the helper by.
    public static let linkName = "docker-credential-" + DockerCredentialRegistries.helperName

    /// The arguments to parse, without the program's name: `docker-credential` put first when the program was run as
    /// ``linkName``.
    /// - Parameter commandLine: The whole command line, the program as it was run first.
    public static func arguments(_ commandLine: [String]) -> [String] {
        let rest = Array(commandLine.dropFirst())
        guard let program = commandLine.first, program.split(separator: "/").last.map(String.init) == linkName else { return rest }
        return ["docker-credential"] + rest
    }
}

import ArgumentParser
import Foundation
import HAAPIGateway
import HAAPIHostTools

/// `haapi-gateway docker-credential`, also run as `docker-credential-haapi-gateway` (a symlink to the executable): a
/// Docker credential helper (the docker-credential-helpers protocol: the action as the argument, standard input and
/// output), answering for the registries Docker's `credHelpers` hands to `haapi-gateway`.
struct DockerCredentialCommand: AsyncParsableCommand {
    /// The protocol's actions this helper answers.
    enum Action: String, ExpressibleByArgument, CaseIterable {
        case get, store, erase, list
    }

    static let configuration = CommandConfiguration(
        commandName: "docker-credential",
        abstract: "Docker's credential helper (docker-credential-haapi-gateway): the access token of 'login' for a registry.",
        discussion:
            "Answers the registries whose credHelpers entry in Docker's configuration ($DOCKER_CONFIG/config.json, else ~/.docker/config.json) is \"\(DockerCredentialRegistries.helperName)\", and no other: made the store of every registry (credsStore), it would otherwise hand the token to each, Docker Hub's too. get reads the server URL on standard input and prints {\"ServerURL\":…,\"Username\":\"\(DockerCredential.username)\",\"Secret\":<the access token>}, the token refreshed first when it expires within \(Int(CredentialHelperToken.minimumValidSeconds)) s, under the token file's lock as token refreshes; for another registry it prints \"\(DockerCredential.notFoundMessage)\" and exits 1, as the protocol has it, and Docker goes on without credentials. list prints each registry with its username. store and erase read their input and keep or delete nothing (erase never ends the sign-in). DPoP-bound tokens are refused: Docker cannot send the proof each request needs (use haapi-gateway proxy). A server URL or credHelpers entry naming plain http:// to a host other than this one is refused: the token would cross the network in clear. As the protocol has it, an error is one line on standard output. Run as docker-credential-haapi-gateway (a symlink to haapi-gateway), the action is the only argument. Exit status: 0 answered; 1 not found, no sign-in (run haapi-gateway login), the refresh refused or failed, DPoP-bound tokens, plain http beyond this host; 78 bad configuration, token file or Docker configuration."
    )

    @OptionGroup var host: HostTokenOptions

    @Argument(help: .valued("action", "The protocol's action: get, store, erase or list."))
    var action: Action

    func run() async throws {
        switch action {
        case .store, .erase:
            _ = await StandardInput.readToEnd()
        case .list:
            print(Self.registries().listing)
        case .get:
            let input = String(decoding: await StandardInput.readToEnd(), as: UTF8.self)
            let (host, registries) = (host, { DockerCredentialRegistries.read() })
            let answer = await DockerCredential.get(input: input, registries: registries, tokenPath: host.tokenFile.path) { minimum in
                await host.current(validFor: minimum)
            }
            switch answer {
            case .success(let json): print(json)
            case .failure(let problem): Self.answer(problem.message, status: problem.exitStatus)
            }
        }
    }

    /// The registries of Docker's configuration, or the process ended with why not.
    private static func registries() -> DockerCredentialRegistries {
        switch DockerCredentialRegistries.read() {
        case .success(let registries): return registries
        case .failure(let problem): answer("haapi-gateway: \(problem.message)", status: problem.exitStatus)
        }
    }

    /// Ends the process with `message` as the protocol answers an error: one line on standard output (docker-credential-
    /// helpers `credentials.Serve`; Docker shows it, and recognises the not-found message by it).
    private static func answer(_ message: String, status: Int32) -> Never {
        FileHandle.standardOutput.write(Data((message + "\n").utf8))
        Foundation.exit(status)
    }
}

import Foundation

@testable import GatewayTestSupport

/// Runs `haapi-gateway` in `directory` with arguments and an environment (nothing inherited but PATH, HOME and TMPDIR,
/// ``runProgram``), waiting at most 60 s.
func runGateway(
    _ arguments: [String],
    environment: [String: String] = [:],
    directory: URL = FileManager.default.temporaryDirectory
) async throws -> ProcessResult {
    try await runProgram(Repository.executable, arguments, environment: environment, directory: directory)
}

import Foundation
import HAAPI
import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// The token file is trusted only as `login` writes it: the user's own (or root's) and writable by its owner only. What
/// it says decides which token the host tools hand on and, through its recorded origin, where a refresh sends the client
/// secret; a file another user wrote or could write is refused, with one line saying what to do. The lock beside it is
/// never opened through a symlink.
@Suite("The token file's trust")
struct TokenFileTrustTests {
    /// A token file as `login` writes it, with an origin, in a private directory of its own.
    static func written() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = directory.appendingPathComponent("tokens.json").path
        let tokens = OAuthTokens(accessToken: "access", expiresIn: 300, refreshToken: "refresh", tokenType: "Bearer", scope: "openid", idToken: nil)
        try TokenFile.write(.success(tokens), to: path, origin: TokenOrigin(issuedBy: .upstream, issuer: "https://login.example", clientID: "c"))
        return path
    }

    @Test("as login writes it (0600, the user's), and readable by others but writable by its owner only (0644): used")
    func asWritten() throws {
        let path = try Self.written()
        #expect(try TokenFile.read(path).tokens.accessToken == "access")
        #expect(TokenFile.origin(of: path)?.issuer == "https://login.example")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(try TokenFile.read(path).tokens.accessToken == "access")
    }

    @Test(
        "writable by the group or by anyone (0664, 0666, 0602): refused, naming the mode and chmod 600; its origin is not taken",
        arguments: [0o664, 0o666, 0o602]
    )
    func writableByOthers(mode: Int) throws {
        let path = try Self.written()
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        let error = #expect(throws: GatewayError.self) { try TokenFile.read(path) }
        #expect(error?.message.contains("can be written by other users (mode \(String(mode, radix: 8)))") == true, "\(String(describing: error))")
        #expect(error?.message.contains("chmod 600") == true)
        #expect(TokenFile.origin(of: path) == nil, "an origin another user could have written decides nothing")
    }

    @Test(
        "another user's file (only root can make one here): refused, naming its uid; its origin is not taken",
        .enabled(if: geteuid() == 0, "needs root to give a file to another user (CI runs as root)")
    )
    func anotherUsersFile() throws {
        let path = try Self.written()
        #expect(chown(path, 65534, 65534) == 0)
        let error = #expect(throws: GatewayError.self) { try TokenFile.read(path) }
        #expect(error?.message.contains("belongs to another user (uid 65534)") == true, "\(String(describing: error))")
        #expect(TokenFile.origin(of: path) == nil)
        // Through a symlink, the file it leads to is judged.
        let link = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("link.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        #expect(throws: GatewayError.self) { try TokenFile.read(link) }
    }

    @Test("the lock beside the token file is never opened through a symlink: the file it points to is neither made nor touched")
    func theLockFollowsNoSymlink() async throws {
        let path = try Self.written()
        let elsewhere = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("elsewhere").path
        try FileManager.default.createSymbolicLink(atPath: TokenFileLock.path(for: path), withDestinationPath: elsewhere)
        await #expect(throws: GatewayError.self) {
            try await TokenFileLock.withLock(of: path, timeout: .seconds(1)) {}
        }
        #expect(!FileManager.default.fileExists(atPath: elsewhere), "the symlink's target was created")
    }
}

import Foundation
import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// The git-credential protocol as `git-credential` and `setup-git` speak it: git's request read, the answer written,
/// and the host `setup-git --host` configures.
@Suite("git credential protocol")
struct GitCredentialProtocolTests {
    @Test("a request is key=value lines up to a blank line; array keys and unknown keys are ignored; a line without = is refused")
    func requests() throws {
        let request = try GitCredentialRequest.parse(
            "protocol=https\nhost=git.example.com:8443\nwwwauth[]=Basic realm=\"x\"\ncapability[]=authtype\npath=a=b\n\nprotocol=http\n"
        ).get()
        #expect(request.scheme == "https")
        #expect(request.host == "git.example.com:8443")
        #expect(request.attributes["path"] == "a=b", "the value is all after the first =")
        #expect(request.attributes["wwwauth[]"] == nil)
        #expect(try GitCredentialRequest.parse("protocol=https\r\nhost=h\r\n").get().host == "h", "CRLF is taken")
        #expect(try GitCredentialRequest.parse("").get().attributes.isEmpty)
        for bad in ["protocol https\n", "=value\n"] {
            guard case .failure(let problem) = GitCredentialRequest.parse(bad) else {
                Issue.record("\(bad) was taken")
                continue
            }
            #expect(problem.message == "git-credential: a line of git's request is not key=value")
        }
    }

    @Test("the token goes over https, and over plain http only to a loopback host")
    func onlySafeTransports() throws {
        func safe(_ text: String) throws -> Bool { try GitCredentialRequest.parse(text).get().isSafeForToken }
        #expect(try safe("protocol=https\nhost=git.example.com\n"))
        #expect(try safe("protocol=HTTPS\nhost=git.example.com:8443\n"))
        for loopback in ["127.0.0.1:8080", "localhost", "[::1]:3000", "127.0.0.2"] {
            #expect(try safe("protocol=http\nhost=\(loopback)\n"), "\(loopback)")
        }
        for unsafe in [
            "protocol=http\nhost=git.example.com\n", "protocol=http\nhost=127.0.0.1.example.com\n", "protocol=ssh\nhost=git.example.com\n",
            "protocol=https\n", "host=git.example.com\n", "protocol=http\nhost=10.0.0.1:80\n", "protocol=http\nhost=localhost.example.com\n",
            "protocol=http\nhost=[::2]:80\n", "protocol=http\nhost=[::1]evil.example\n", "protocol=http\nhost=[::1].evil.example:80\n",
            "protocol=http\nhost=[::1]:+80\n",
        ] {
            #expect(try !safe(unsafe), "\(unsafe)")
        }
    }

    @Test("the answer: the fixed username, the token as the password, and its expiry in Unix seconds when known")
    func answers() {
        let expiring = CredentialHelperToken(value: "abc.def", expiry: Date(timeIntervalSince1970: 1_800_000_000.7))
        #expect(GitCredentialAnswer(token: expiring).text == "username=haapi-gateway\npassword=abc.def\npassword_expiry_utc=1800000000\n")
        #expect(GitCredentialAnswer(token: CredentialHelperToken(value: "t", expiry: nil)).text == "username=haapi-gateway\npassword=t\n")
    }

    @Test("--host: host, host:port and https URLs mean https; http only for loopback; the two git config calls reset, then add")
    func hosts() throws {
        #expect(try GitCredentialHost.parse("git.example.com").get().url == "https://git.example.com")
        #expect(try GitCredentialHost.parse("Git.Example.com:8443").get().url == "https://git.example.com:8443")
        #expect(try GitCredentialHost.parse("https://git.example.com/").get().url == "https://git.example.com")
        #expect(try GitCredentialHost.parse("http://127.0.0.1:8080").get().url == "http://127.0.0.1:8080")
        #expect(try GitCredentialHost.parse("http://[::1]:8080").get().url == "http://[::1]:8080")
        #expect(try GitCredentialHost.parse("127.0.0.1:8080").get().url == "https://127.0.0.1:8080", "https unless http is written")
        for bad in [
            "", "http://git.example.com", "http://127.0.0.1.example.com", "http://127.0.0.256", "git.example.com/team", "a host",
            "user@git.example.com", "ssh://git.example.com", ":8080",
        ] {
            guard case .failure(let problem) = GitCredentialHost.parse(bad) else {
                Issue.record("\(bad) was taken")
                continue
            }
            #expect(problem.message.hasPrefix("--host"), "\(problem.message)")
        }
        let host = try GitCredentialHost.parse("git.example.com").get()
        #expect(
            host.gitArguments(executable: "/usr/local/bin/haapi-gateway") == [
                ["config", "--global", "--replace-all", "credential.https://git.example.com.helper", ""],
                ["config", "--global", "--add", "credential.https://git.example.com.helper", "!/usr/local/bin/haapi-gateway git-credential"],
            ]
        )
        #expect(GitCredentialHost.helper(executable: "/opt/my tools/haapi-gateway") == "!'/opt/my tools/haapi-gateway' git-credential")
        #expect(GitCredentialHost.helper(executable: "/opt/it's/haapi-gateway") == #"!'/opt/it'\''s/haapi-gateway' git-credential"#)
    }
}

import Foundation

@testable import GatewayTestSupport

/// A scratch copy of the system paths a deployment recipe installs into, so that a test can run the recipe as written,
/// as root, and start the gateway from what it installed, as the unprivileged user a service manager would start it as.
///
/// A script runs in a mount namespace of its own (`unshare -m`): `/etc`, `/usr` and `/var/lib` are overlays on the
/// machine's own, whose writes land in a scratch directory, and `/run` is a fresh tmpfs. The machine's own paths never
/// change. The script's last command replaces it (`exec`), so the process the test holds is the gateway's. A test
/// removes the scratch directory when it ends (``remove()``): a recipe's installation copies the gateway's binary into
/// it, 150 MB a test, which every run before left behind.
struct ScratchSystem {
    /// The scratch directory: the overlays' upper and work directories, and whatever a test puts beside them.
    let directory: URL

    init() throws {
        directory = try Repository.temporaryDirectory()
    }

    /// Removes the scratch directory and everything the scripts wrote in it; call it once what ran there has stopped.
    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Whether scratch systems can be made here: root, `unshare`, `setpriv` and overlay mounts (a test is skipped,
    /// visibly, without them, unless `HAAPI_GATEWAY_REQUIRE_ALL_TESTS` is set).
    static let available: Bool =
        TestTools.requireAll
        || (getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") && TestProcess.overlaysWork)

    /// The first lines of every script: stop at the first failure, and the scratch copies of the system's paths.
    var prelude: String {
        var lines = ["set -eu", "scratch=\(Self.quoted(directory.path))"]
        for path in ["etc", "usr", "var/lib"] {
            lines.append(
                "mkdir -p \"$scratch/upper/\(path)\" \"$scratch/work/\(path)\" && mount -t overlay overlay -o \"lowerdir=/\(path),upperdir=$scratch/upper/\(path),workdir=$scratch/work/\(path)\" /\(path)"
            )
        }
        lines.append("mount -t tmpfs -o mode=0755 tmpfs /run")
        return lines.joined(separator: "\n")
    }

    /// Runs `script` (after ``prelude``) in the scratch system; it ends by `exec`ing the gateway.
    func start(_ script: String) throws -> RunningGateway {
        let file = directory.appendingPathComponent("run.sh")
        try (prelude + "\n" + script + "\n").write(to: file, atomically: true, encoding: .utf8)
        return try RunningGateway(
            program: URL(fileURLWithPath: "/usr/bin/unshare"),
            ["-m", "--propagation", "private", "/bin/sh", file.path],
            environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL": "C"]
        )
    }

    /// `text` quoted for `sh`.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// A command line that runs `command` (a whole `sh` command) as `uid`:`gid` (numbers, or shell words that expand to
    /// them) with `groups` as its supplementary groups, no capabilities, no new privileges, and exactly `environment`,
    /// replacing the script.
    static func exec(_ command: String, uid: String, gid: String, groups: [String] = [], environment: [String: String]) -> String {
        let variables = environment.sorted { $0.key < $1.key }.map { quoted("\($0.key)=\($0.value)") }.joined(separator: " ")
        let groupOption = groups.isEmpty ? "--clear-groups" : "--groups=\(groups.joined(separator: ","))"
        return
            "exec env -i \(variables) /usr/bin/setpriv --reuid=\(uid) --regid=\(gid) \(groupOption) --no-new-privs --inh-caps=-all /bin/sh -c \(quoted(command))"
    }
}

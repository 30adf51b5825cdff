import Foundation
import HAAPIDemoServer
import HAAPIGateway
import Testing
import Yams

@testable import GatewayTestSupport

/// Every deployment recipe of `docs/deployment.md`, executed as written, with the users, modes and files it really has:
/// the systemd unit's installation (from the package's files) and start, the container's image, and the Kubernetes manifest's
/// pod. Each runs in a scratch copy of the system's paths (``ScratchSystem``: overlays on `/etc`, `/usr` and
/// `/var/lib`, a fresh `/run`, in a mount namespace of its own) and starts the gateway as the unprivileged user the
/// recipe names, against the test's own demo server (and PostgreSQL for Kubernetes), until `/readyz` says ready.
@Suite(
    "Deployment recipes, executed",
    .enabled(
        if: ScratchSystem.available,
        "needs root, unshare, setpriv and overlay mounts (a scratch copy of /etc, /usr, /var/lib and /run)"
    ),
    .startsPrograms()
)
struct DeploymentRecipeTests {
    static let deploy = Repository.config.appendingPathComponent("deploy")
    /// The user `DynamicUser=yes` would make up (systemd picks one in 61184–65519).
    static let dynamicUser = 61234

    // MARK: - systemd

    /// The commands of the unit's header, which docs/deployment.md repeats after the package's installation: the recipe.
    static func systemdRecipe() throws -> [String] {
        let unit = try SystemdUnit(contentsOf: deploy.appendingPathComponent("haapi-gateway.service"))
        let start = try #require(unit.header.firstIndex { $0.hasPrefix("  (umask 077") }, "the unit's header gives the secrets' lines")
        return unit.header[start...].prefix { $0.hasPrefix("  ") }.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The package's installation as docs/deployment.md gives it.
    static let packageInstallation = "apt-get install ./haapi-gateway_*_amd64.deb"

    @Test("docs/deployment.md installs the package, then gives the lines the unit's header gives, line for line")
    func theDocumentedRecipeIsTheUnitsOwn() throws {
        let document = try String(contentsOf: Repository.root.appendingPathComponent("docs/deployment.md"), encoding: .utf8)
        let section = try #require(document.range(of: "## systemd")).upperBound
        let block = try #require(document.range(of: "```sh\n", range: section..<document.endIndex)).upperBound
        let end = try #require(document.range(of: "```", range: block..<document.endIndex)).lowerBound
        let lines = document[block..<end].split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
        #expect(lines == [Self.packageInstallation] + (try Self.systemdRecipe()))
    }

    /// The package's files as config/deploy/debian/files lists them, laid out as `apt-get install` would, with this
    /// build's program where the release's goes; what only a release makes (the man page, completions, notices) is left
    /// out, as nothing in a start reads it.
    static func packageLayout() throws -> [String] {
        let manifest = try String(contentsOf: deploy.appendingPathComponent("debian/files"), encoding: .utf8)
        var lines: [String] = []
        for line in manifest.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard fields.count == 3 else { continue }
            let (source, destination, mode) = (fields[0], fields[1], fields[2])
            let origin = ScratchSystem.quoted(Repository.root.appendingPathComponent(source).path)
            if source == "release:haapi-gateway" {
                lines.append("install -D -m \(mode) \(ScratchSystem.quoted(Repository.executable.path)) \(ScratchSystem.quoted(destination))")
            } else if source.hasSuffix("/") {
                lines.append("mkdir -p \(ScratchSystem.quoted(destination)) && cp -r \(origin)/. \(ScratchSystem.quoted(destination))")
            } else if !source.hasPrefix("release:") {
                lines.append("install -D -m \(mode) \(origin) \(ScratchSystem.quoted(destination))")
            }
        }
        return lines
    }

    /// The recipe as written, as root, with two substitutions: the package's installation is its files laid out
    /// (``packageLayout()``), and `systemctl enable --now` is done as systemd starts this unit: its own user
    /// (DynamicUser), the state directory given to it, the credentials copied for it alone, the umask, the open-file
    /// limit, the unit's environment, and its ExecStart. A drop-in (as `systemctl edit` writes) points the upstream at the
    /// test's demo server and the port at a free one.
    static func systemdScript(_ scratch: ScratchSystem, issuer: String, port: Int, tamper: String = "") throws -> String {
        let unit = try SystemdUnit(contentsOf: deploy.appendingPathComponent("haapi-gateway.service"))
        let recipe = try systemdRecipe()
        try #require(recipe.last == "systemctl enable --now haapi-gateway", "the recipe ends by enabling the unit")

        let user = dynamicUser
        var lines = try packageLayout()
        lines.append("export CLIENT_SECRET=\(ScratchSystem.quoted(DemoServer.clientSecret)) WEBHOOK_SECRET='a-webhook-secret-of-the-systemd-test'")
        lines += recipe.dropLast()
        lines.append(tamper)
        // systemd-analyze verify, where it is installed, on the unit as installed (its binary is there now).
        lines.append(
            "if command -v systemd-analyze >/dev/null; then systemd-analyze verify /lib/systemd/system/haapi-gateway.service > \"$scratch/verify.log\" 2>&1 && echo 0 > \"$scratch/verify.status\" || echo 1 > \"$scratch/verify.status\"; fi"
        )
        // What systemd does to start the unit.
        if let state = unit.value("StateDirectory") {
            lines.append("install -d -m \(unit.value("StateDirectoryMode") ?? "0755") -o \(user) -g \(user) /var/lib/\(state)")
        }
        let credentials = "/run/credentials/haapi-gateway.service"
        lines.append("install -d -m 0500 -o \(user) -g \(user) \(credentials)")
        for credential in unit.credentials {
            lines.append("install -m 0400 -o \(user) -g \(user) \(credential.source) \(credentials)/\(credential.name)")
        }
        // LimitNOFILE where this machine allows it (a sandbox may cap the hard limit lower even for root: the gateway then
        // lowers its connection cap and says so, as the unit's comment describes).
        if let limit = unit.value("LimitNOFILE") {
            lines.append("{ ulimit -Hn \(limit) && ulimit -Sn \(limit); } 2>/dev/null || ulimit -Sn \"$(ulimit -Hn)\"")
        }
        var environment = unit.environment
        environment["PATH"] = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
        environment["CREDENTIALS_DIRECTORY"] = credentials
        environment["STATE_DIRECTORY"] = unit.value("StateDirectory").map { "/var/lib/\($0)" }
        // The drop-in.
        environment["HAAPI_GATEWAY_UPSTREAM_BASE_URL"] = issuer
        environment["HAAPI_GATEWAY_UPSTREAM_CLIENT_ID"] = DemoServer.clientID
        environment["HAAPI_GATEWAY_SERVER_PORT"] = "\(port)"
        let execStart = try #require(unit.value("ExecStart"))
        lines.append(
            ScratchSystem.exec(
                "umask \(unit.value("UMask") ?? "0022") && exec \(execStart)",
                uid: "\(user)",
                gid: "\(user)",
                environment: environment
            )
        )
        return lines.joined(separator: "\n")
    }

    @Test(
        "systemd: the unit's installation as written, started as systemd starts it (its own user, credentials, state directory): systemd-analyze verify passes, /readyz says ready, SIGTERM ends it within TimeoutStopSec"
    )
    func theSystemdRecipeRunsOnTheFirstTry() async throws {
        let demo = try RunningGateway(["demo-server", "--port", "0", "--log-level", "error"])
        let issuer = try await demo.waitForOutput(#"Demo HAAPI server: issuer (http://127\.0\.0\.1:\d+/oauth/v2/oauth-anonymous)"#)
        defer { demo.signal(SIGTERM) }
        let scratch = try ScratchSystem()
        defer { scratch.remove() }
        let port = try ReservedPort()
        let number = port.port
        port.release()
        let gateway = try scratch.start(try Self.systemdScript(scratch, issuer: issuer, port: number))
        let ready = try await Self.waitUntilReady(port: number, gateway: gateway)
        #expect(ready, "\(gateway.standardError)")

        let verification = try? String(contentsOf: scratch.directory.appendingPathComponent("verify.status"), encoding: .utf8)
        if verification != nil || TestTools.requireAll {
            let log = (try? String(contentsOf: scratch.directory.appendingPathComponent("verify.log"), encoding: .utf8)) ?? ""
            #expect(verification?.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "systemd-analyze verify: \(log)")
        }
        // The stop: within the unit's TimeoutStopSec, and the configuration's drain and stop fit in it.
        let unit = try SystemdUnit(contentsOf: Self.deploy.appendingPathComponent("haapi-gateway.service"))
        let timeout = try #require(unit.seconds("TimeoutStopSec"))
        let configuration = try Yams.load(yaml: String(contentsOf: Self.deploy.appendingPathComponent("systemd.yaml"), encoding: .utf8))
        let server = try #require((configuration as? [String: Any])?["server"] as? [String: Any])
        let drain = server["drainSeconds"] as? Int ?? 5
        let stop = server["stopSeconds"] as? Int ?? 30
        #expect(drain + stop < timeout, "TimeoutStopSec \(timeout) must outlast server.drainSeconds \(drain) + server.stopSeconds \(stop)")
        let (status, took) = try await gateway.stopped(killingAfter: .seconds(timeout))
        #expect(status == 0, "\(gateway.standardError)")
        #expect(took < .seconds(timeout))
        // Every line on standard error is JSON (HAAPI_GATEWAY_LOGGING_FORMAT=json in the unit): the journal's.
        for line in gateway.standardError.split(separator: "\n") where !line.isEmpty {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
    }

    /// What the recipe used to install: the configuration directory 0750 and the file 0640, root's. The dynamic user
    /// cannot read it; the one line says who runs and what the mode is, and the exit status is one the unit does not
    /// restart.
    @Test(
        "systemd: a configuration the service's user may not read stops it with one line naming the user and the mode, and an exit status the unit does not restart"
    )
    func anUnreadableConfigurationNamesTheUserAndTheMode() async throws {
        let scratch = try ScratchSystem()
        defer { scratch.remove() }
        let gateway = try scratch.start(
            try Self.systemdScript(
                scratch,
                issuer: "http://127.0.0.1:9/oauth/v2/oauth-anonymous",
                port: 0,
                tamper: "chmod 0750 /etc/haapi-gateway && chmod 0640 /etc/haapi-gateway/haapi-gateway.yaml"
            )
        )
        let status = try await gateway.waitForExit(timeout: .seconds(60))
        let unit = try SystemdUnit(contentsOf: Self.deploy.appendingPathComponent("haapi-gateway.service"))
        let preventing = (unit.value("RestartPreventExitStatus") ?? "").split(separator: " ").compactMap { Int32($0) }
        #expect(preventing.contains(status), "exit status \(status) is restarted by the unit: \(gateway.standardError)")
        #expect(
            gateway.standardError.contains(
                "the directory /etc/haapi-gateway is mode 0750, owned by root:root, and uid \(Self.dynamicUser) (gid \(Self.dynamicUser)) may not enter it"
            ),
            "\(gateway.standardError)"
        )
    }

    @Test("systemd: every failure to start that restarting cannot mend is in RestartPreventExitStatus; those that may pass are not")
    func exitStatusesAndRestartPreventExitStatusAgree() throws {
        let unit = try SystemdUnit(contentsOf: Self.deploy.appendingPathComponent("haapi-gateway.service"))
        #expect(unit.value("Restart") == "on-failure")
        let preventing = Set((unit.value("RestartPreventExitStatus") ?? "").split(separator: " ").compactMap { Int32($0) })
        #expect(
            preventing
                == [StartupFailure.configurationStatus, StartupFailure.unreadableInputStatus, StartupFailure.permissionDeniedStatus]
        )
        #expect(!preventing.contains(StartupFailure.addressInUseStatus) && !preventing.contains(StartupFailure.addressUnavailableStatus))
        #expect((unit.seconds("RestartSec") ?? 0) >= 1, "a failure that may pass is not restarted in a tight loop")
    }

    // MARK: - Container

    static func containerfile() throws -> Containerfile {
        try Containerfile(contentsOf: deploy.appendingPathComponent("Containerfile"))
    }

    /// The image's layout as the Containerfile makes it from the release's build context (scripts/release puts the
    /// program and config/haapi-gateway.yaml in it), in the scratch system, as shell commands: this build's program where
    /// the release's goes.
    static func imageLayout(_ image: Containerfile.Stage) throws -> [String] {
        var lines: [String] = []
        for copy in image.contextCopies {
            for source in copy.sources {
                let program = source == "haapi-gateway"
                let origin = program ? Repository.executable : Repository.config.appendingPathComponent(source)
                #expect(FileManager.default.fileExists(atPath: origin.path), "the build context's \(source) is not the program or in config/")
                lines.append(
                    "install -D -m \(program ? "0755" : "0644") \(ScratchSystem.quoted(origin.path)) \(ScratchSystem.quoted(copy.destination))"
                )
            }
        }
        return lines
    }

    /// The image's user and group, numbers (`USER 10001:10001`: no account is made in the image).
    static func imageUser(_ image: Containerfile.Stage) throws -> (uid: String, gid: String) {
        let user = try #require(image.last("USER")).split(separator: ":").map(String.init)
        try #require(user.count == 2 && user.allSatisfy { Int($0) != nil }, "USER uid:gid, numbers")
        return (user[0], user[1])
    }

    /// The environment a container runtime gives the image's entry point: its PATH and HOME, and the image's ENV.
    static func containerEnvironment(_ image: Containerfile.Stage) -> [String: String] {
        image.environment.merging(["PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/nonexistent"]) { mine, _ in
            mine
        }
    }

    @Test(
        "container: the image's user (not root), paths, environment and entry point run the gateway with its shipped configuration: /healthz and /readyz answer, SIGTERM (its STOPSIGNAL) ends it"
    )
    func theContainerImageRunsAsItsUser() async throws {
        let image = try #require(try Self.containerfile().stages.last)
        let user = try Self.imageUser(image)
        #expect(user.uid != "0" && user.gid != "0")
        #expect(image.last("STOPSIGNAL") == "SIGTERM")
        #expect(image.last("EXPOSE") == "\(ServerSettings().port)", "the port the shipped configuration listens on")
        let scratch = try ScratchSystem()
        defer { scratch.remove() }
        let port = try ReservedPort()
        let number = port.port
        port.release()
        var environment = Self.containerEnvironment(image)
        environment["HAAPI_GATEWAY_SERVER_PORT"] = "\(number)"  // podman run -e: this machine's 8080 may be taken
        var lines = try Self.imageLayout(image)
        // The working directory is the image's WORKDIR, / when it names none.
        lines.append(
            ScratchSystem.exec(
                "cd \(image.last("WORKDIR") ?? "/") && exec " + image.entryPoint.map(ScratchSystem.quoted).joined(separator: " "),
                uid: user.uid,
                gid: user.gid,
                environment: environment
            )
        )
        let gateway = try scratch.start(lines.joined(separator: "\n"))
        let ready = try await Self.waitUntilReady(port: number, gateway: gateway)
        #expect(ready, "\(gateway.standardError)")
        let health = try await TestBrowser.using("http://127.0.0.1:\(number)") { try await $0.get("/healthz").status }
        #expect(health == 200)
        let (status, _) = try await gateway.stopped(killingAfter: .seconds(60))
        #expect(status == 0, "\(gateway.standardError)")
    }

    // MARK: - Kubernetes

    /// The manifest's objects by kind.
    static func manifest() throws -> [String: [String: Any]] {
        let text = try String(contentsOf: deploy.appendingPathComponent("kubernetes.yaml"), encoding: .utf8)
        var objects: [String: [String: Any]] = [:]
        for document in try Yams.load_all(yaml: text) {
            guard let object = document as? [String: Any], let kind = object["kind"] as? String else { continue }
            objects[kind] = object
        }
        return objects
    }

    /// The commands of the manifest's header that make the Secret's files, and the `kubectl create secret` they end with.
    static func kubernetesSecretRecipe() throws -> (files: [String], create: String) {
        let text = try String(contentsOf: deploy.appendingPathComponent("kubernetes.yaml"), encoding: .utf8)
        let lines = text.split(separator: "\n").map { $0.hasPrefix("#") ? String($0.dropFirst()).trimmingCharacters(in: .whitespaces) : "" }
        let files = lines.filter { $0.hasPrefix("openssl rand") || $0.hasPrefix("printf") }
        let start = try #require(lines.firstIndex { $0.hasPrefix("kubectl create secret") })
        var create = lines[start]
        var index = start
        while create.hasSuffix("\\"), index + 1 < lines.count {
            index += 1
            create = String(create.dropLast()).trimmingCharacters(in: .whitespaces) + " " + lines[index]
        }
        return (files, create)
    }

    @Test("Kubernetes: the manifest names the image of this version (VERSION), the tag the release's image carries")
    func theManifestNamesThisVersionsImage() throws {
        let version = try String(contentsOf: Repository.root.appendingPathComponent("VERSION"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let deployment = try #require(try Self.manifest()["Deployment"])
        let template = try #require((deployment["spec"] as? [String: Any])?["template"] as? [String: Any])
        let containers = try #require((template["spec"] as? [String: Any])?["containers"] as? [[String: Any]])
        let image = try #require(containers.first?["image"] as? String)
        #expect(image.hasSuffix("/haapi-gateway:\(version)"), "\(image)")
    }

    @Test("docs/deployment.md makes the Kubernetes Secret with the commands the manifest's header gives")
    func theDocumentedSecretIsTheManifestsOwn() throws {
        let document = try String(contentsOf: Repository.root.appendingPathComponent("docs/deployment.md"), encoding: .utf8)
        let (files, create) = try Self.kubernetesSecretRecipe()
        for line in files { #expect(document.contains(line), "docs/deployment.md does not say: \(line)") }
        let flags = create.split(separator: " ").filter { $0.hasPrefix("--from-file=") }
        for flag in flags { #expect(document.contains(flag), "docs/deployment.md does not say: \(flag)") }
    }

    @Test(
        "Kubernetes: the manifest's pod as a kubelet runs it (uid 10001, fsGroup, a read-only root, the ConfigMap and the Secret mounted as Kubernetes mounts them) gets ready against PostgreSQL; its probes answer within their time-outs and SIGTERM ends it within the grace period",
        .enabled(if: TestTools.postgresAvailable, "needs PostgreSQL's initdb, postgres, psql and pg_dump (Debian's postgresql)")
    )
    func theKubernetesPodRunsAsTheManifestSays() async throws {
        let objects = try Self.manifest()
        let configMap = try #require(objects["ConfigMap"]?["data"] as? [String: String])
        let deployment = try #require(objects["Deployment"])
        let pod = try #require(((deployment["spec"] as? [String: Any])?["template"] as? [String: Any])?["spec"] as? [String: Any])
        let podSecurity = try #require(pod["securityContext"] as? [String: Any])
        let container = try #require((pod["containers"] as? [[String: Any]])?.first)
        let containerSecurity = try #require(container["securityContext"] as? [String: Any])
        let uid = try #require(podSecurity["runAsUser"] as? Int)
        let gid = try #require(podSecurity["runAsGroup"] as? Int)
        let fsGroup = try #require(podSecurity["fsGroup"] as? Int)
        #expect(podSecurity["runAsNonRoot"] as? Bool == true && uid != 0)
        #expect(containerSecurity["readOnlyRootFilesystem"] as? Bool == true)
        #expect(containerSecurity["allowPrivilegeEscalation"] as? Bool == false)
        let image = try #require(try Self.containerfile().stages.last)
        let imageUser = try Self.imageUser(image)
        #expect(imageUser.uid == "\(uid)" && imageUser.gid == "\(gid)", "the manifest runs the image's own user and group")

        // The Secret, made by the header's commands (the database URL is the operator's own: here the test's server).
        let server = try await PostgresTestServer.start()
        defer { Task { await server.stop() } }
        let databaseURL = server.url(database: try await server.createDatabase())
        let secretFiles = try Repository.temporaryDirectory()
        let (files, create) = try Self.kubernetesSecretRecipe()
        let commands = files.map { $0.contains("> postgres-url") ? "printf '%s' \(ScratchSystem.quoted(databaseURL)) > postgres-url" : $0 }
        let made = try await runProgram(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "set -eu\ncd \(ScratchSystem.quoted(secretFiles.path))\n" + commands.joined(separator: "\n")],
            environment: [
                "PATH": "/usr/bin:/bin", "CLIENT_SECRET": DemoServer.clientSecret, "WEBHOOK_SECRET": "a-webhook-secret-of-the-kubernetes-test",
            ]
        )
        try #require(made.status == 0, "the Secret's files: \(made.standardError)")
        let keys = create.split(separator: " ").filter { $0.hasPrefix("--from-file=") }.map { String($0.dropFirst("--from-file=".count)) }
        #expect(!keys.isEmpty)

        // The ConfigMap, adapted as an operator adapts it: the upstream is theirs (here the test's demo server).
        let demo = try RunningGateway(["demo-server", "--port", "0", "--log-level", "error"])
        let issuer = try await demo.waitForOutput(#"Demo HAAPI server: issuer (http://127\.0\.0\.1:\d+/oauth/v2/oauth-anonymous)"#)
        defer { demo.signal(SIGTERM) }
        var configuration = try #require(configMap["haapi-gateway.yaml"])
        configuration = try Self.replacing(#/baseURL: \S+/#, with: "baseURL: \(issuer)", in: configuration)
        configuration = try Self.replacing(#/clientID: \S+/#, with: "clientID: \(DemoServer.clientID)", in: configuration)

        // The volumes as the kubelet mounts them: the atomic writer's layout (files as links into ..data), the Secret's
        // defaultMode, owned by root and the pod's fsGroup.
        let scratch = try ScratchSystem()
        defer { scratch.remove() }
        let volumes = scratch.directory.appendingPathComponent("volumes")
        let mounts = try #require(container["volumeMounts"] as? [[String: Any]])
        let podVolumes = try #require(pod["volumes"] as? [[String: Any]])
        var lines = try Self.imageLayout(image)
        for mount in mounts {
            let name = try #require(mount["name"] as? String)
            let path = try #require(mount["mountPath"] as? String)
            let volume = try #require(podVolumes.first { $0["name"] as? String == name })
            let directory = volumes.appendingPathComponent(name)
            let revision = directory.appendingPathComponent("..2026_11_26_00_00_00.000000000")
            try FileManager.default.createDirectory(at: revision, withIntermediateDirectories: true)
            var entries: [String: Data] = [:]
            var mode = 0o644
            if volume["configMap"] != nil {
                entries = ["haapi-gateway.yaml": Data(configuration.utf8)]
            } else if let secret = volume["secret"] as? [String: Any] {
                mode = secret["defaultMode"] as? Int ?? 0o644
                for key in keys { entries[key] = try Data(contentsOf: secretFiles.appendingPathComponent(key)) }
            }
            for (key, data) in entries {
                try data.write(to: revision.appendingPathComponent(key))
                try FileManager.default.createSymbolicLink(
                    atPath: directory.appendingPathComponent(key).path,
                    withDestinationPath: "..data/\(key)"
                )
            }
            try FileManager.default.createSymbolicLink(
                atPath: directory.appendingPathComponent("..data").path,
                withDestinationPath: revision.lastPathComponent
            )
            lines.append(
                "chown -R 0:\(fsGroup) \(ScratchSystem.quoted(directory.path)) && chmod 2755 \(ScratchSystem.quoted(directory.path)) \(ScratchSystem.quoted(revision.path))"
            )
            lines.append("chmod \(String(mode, radix: 8)) \(ScratchSystem.quoted(revision.path))/*")
            lines.append(
                "mkdir -p \(ScratchSystem.quoted(path)) && mount --bind \(ScratchSystem.quoted(directory.path)) \(ScratchSystem.quoted(path))"
            )
            if mount["readOnly"] as? Bool == true { lines.append("mount -o remount,bind,ro \(ScratchSystem.quoted(path))") }
        }
        // readOnlyRootFilesystem: nothing the container sees is writable but its volumes' own (none here).
        for path in ["/", "/etc", "/usr", "/var/lib", "/run"] { lines.append("mount -o remount,bind,ro \(path)") }

        let port = try ReservedPort()
        let number = port.port
        port.release()
        var environment = Self.containerEnvironment(image)
        environment["HAAPI_GATEWAY_SERVER_PORT"] = "\(number)"  // the pod's own network has 8080 free; this machine may not
        let arguments = image.entryPoint + (container["args"] as? [String] ?? [])
        lines.append(
            ScratchSystem.exec(
                "cd \(image.last("WORKDIR") ?? "/") && exec " + arguments.map(ScratchSystem.quoted).joined(separator: " "),
                uid: "\(uid)",
                gid: "\(gid)",
                groups: ["\(fsGroup)"],
                environment: environment
            )
        )
        let gateway = try scratch.start(lines.joined(separator: "\n"))
        let ready = try await Self.waitUntilReady(port: number, gateway: gateway)
        #expect(ready, "\(gateway.standardError)")

        // The probes, as the manifest sets them: each answers within its time-out.
        for probe in ["livenessProbe", "readinessProbe"] {
            let settings = try #require(container[probe] as? [String: Any])
            let path = try #require((settings["httpGet"] as? [String: Any])?["path"] as? String)
            let timeout = try #require(settings["timeoutSeconds"] as? Int)
            let started = ContinuousClock.now
            let status = try await TestBrowser.using("http://127.0.0.1:\(number)") { try await $0.get(path).status }
            #expect(status == 200, "\(probe) \(path)")
            #expect(ContinuousClock.now - started < .seconds(timeout), "\(probe) answered after \(ContinuousClock.now - started)")
        }
        // The stop: the configuration's drain and stop fit in the grace period.
        let grace = try #require(pod["terminationGracePeriodSeconds"] as? Int)
        let serverSection = try #require((try Yams.load(yaml: configuration) as? [String: Any])?["server"] as? [String: Any])
        let drain = serverSection["drainSeconds"] as? Int ?? ServerSettings().drainSeconds
        let stop = serverSection["stopSeconds"] as? Int ?? ServerSettings().stopSeconds
        #expect(
            drain + stop < grace,
            "terminationGracePeriodSeconds \(grace) must outlast server.drainSeconds \(drain) + server.stopSeconds \(stop)"
        )
        let (status, took) = try await gateway.stopped(killingAfter: .seconds(grace))
        #expect(status == 0, "\(gateway.standardError)")
        #expect(took < .seconds(grace))
        #expect(!gateway.standardError.contains("read-only"), "the gateway wrote nowhere: \(gateway.standardError)")
        for line in gateway.standardError.split(separator: "\n") where !line.isEmpty {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
    }

    private static func replacing(_ pattern: Regex<Substring>, with replacement: String, in text: String) throws -> String {
        let match = try #require(text.firstMatch(of: pattern), "the ConfigMap names no \(replacement.prefix { $0 != ":" })")
        return text.replacingCharacters(in: match.range, with: replacement)
    }

    // MARK: - Helpers

    /// Waits (at most 60 s) until `/readyz` on 127.0.0.1:`port` answers 200; false when the gateway exited first or it
    /// never did.
    static func waitUntilReady(port: Int, gateway: RunningGateway) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, gateway.isRunning {
            if let status = try? await TestBrowser.using("http://127.0.0.1:\(port)", { try await $0.get("/readyz").status }), status == 200 {
                return true
            }
            try await Task.sleep(for: .milliseconds(250))
        }
        return false
    }
}

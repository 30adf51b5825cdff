import Synchronization
import Testing

@testable import HAAPIGateway

/// The sign-in pages' mode is one value made from the configuration: `login`'s pairing over kiosk over a browser.
@Suite("The sign-in mode")
struct SignInModeTests {
    @Test("a configuration without kiosk or pairing is a person's own browser: a visit starts a sign-in")
    func browser() {
        let mode = SignInMode(GatewayConfiguration())
        guard case .browser = mode else {
            Issue.record("not browser: \(mode)")
            return
        }
        #expect(mode.startsOnVisit)
        #expect(!mode.isSharedScreen)
    }

    @Test("kiosk.enabled is a shared screen")
    func kiosk() {
        var configuration = GatewayConfiguration()
        configuration.kiosk.enabled = true
        let mode = SignInMode(configuration)
        guard case .kiosk = mode else {
            Issue.record("not kiosk: \(mode)")
            return
        }
        #expect(mode.startsOnVisit)
        #expect(mode.isSharedScreen)
    }

    @Test("login's pairing wins over kiosk: no visit starts a sign-in, and only a page of an ended sign-in lets login stop")
    func pairing() {
        let served = Mutex(0)
        var configuration = GatewayConfiguration()
        configuration.kiosk.enabled = true
        configuration.pairing = PairingSettings(ticket: PairingTicket.make(lifetime: .seconds(60)), hostName: "host") {
            served.withLock { $0 += 1 }
        }
        let mode = SignInMode(configuration)
        guard case .pairing = mode else {
            Issue.record("not pairing: \(mode)")
            return
        }
        #expect(!mode.startsOnVisit)
        #expect(!mode.isSharedScreen)
        mode.pageServed(at: .step)
        mode.pageServed(at: .confirming(code: "1234", hostName: "host"))
        #expect(served.withLock { $0 } == 0, "neither a step's page nor the confirmation's is the last")
        mode.pageServed(at: .signedIn)
        mode.pageServed(at: .cancelled)
        mode.pageServed(at: .failed(.gateway(.signInNotCompleted)))
        #expect(served.withLock { $0 } == 3)
    }

}

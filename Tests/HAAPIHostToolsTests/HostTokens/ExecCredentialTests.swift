import Foundation
import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// The Kubernetes exec credential `kube-credential` prints, and the apiVersion it answers in.
@Suite("Kubernetes ExecCredential")
struct ExecCredentialTests {
    @Test("the apiVersion is KUBERNETES_EXEC_INFO's when v1 or v1beta1, v1 without it; others are refused")
    func versions() throws {
        #expect(try ExecCredentialVersion.requested(by: nil).get() == .v1)
        #expect(try ExecCredentialVersion.requested(by: "").get() == .v1)
        let info = #"{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{"interactive":false}}"#
        #expect(try ExecCredentialVersion.requested(by: info).get() == .v1beta1)
        #expect(try ExecCredentialVersion.requested(by: #"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential"}"#).get() == .v1)
        for bad in [#"{"apiVersion":"client.authentication.k8s.io/v1alpha1"}"#, "[]", "{", #"{"kind":"ExecCredential"}"#] {
            guard case .failure(let problem) = ExecCredentialVersion.requested(by: bad) else {
                Issue.record("\(bad) was taken")
                continue
            }
            #expect(problem.exitStatus == 78)
            #expect(problem.message.hasPrefix("KUBERNETES_EXEC_INFO"))
        }
    }

    @Test("the ExecCredential: the version echoed, the token, and the expiry in RFC 3339 UTC (left out when unknown)")
    func json() throws {
        let token = CredentialHelperToken(value: "eyJ.x.y", expiry: Date(timeIntervalSince1970: 1_800_000_000.9))
        #expect(
            ExecCredential(version: .v1beta1, token: token).json
                == #"{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"expirationTimestamp":"2027-01-15T08:00:00Z","token":"eyJ.x.y"}}"#
        )
        #expect(
            ExecCredential(version: .v1, token: CredentialHelperToken(value: "t", expiry: nil)).json
                == #"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"t"}}"#
        )
    }
}

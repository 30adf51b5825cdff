import Foundation
import HAAPIGateway

/// The `apiVersion` of the `ExecCredential` `kube-credential` answers (Kubernetes' client-go credential plugins,
/// https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins): the one the
/// client names in `KUBERNETES_EXEC_INFO` (its `ExecCredential` with `spec`), which must be answered in kind, else `v1`.
public enum ExecCredentialVersion: String, Sendable, CaseIterable {
    /// `client.authentication.k8s.io/v1`, the default (Kubernetes 1.22 and later).
    case v1 = "client.authentication.k8s.io/v1"
    /// `client.authentication.k8s.io/v1beta1`, for older clients and kubeconfigs naming it.
    case v1beta1 = "client.authentication.k8s.io/v1beta1"

    /// The version `execInfo` (the value of `KUBERNETES_EXEC_INFO`) asks for; `v1` without it; a problem for a version
    /// this helper does not answer or a value that is not an object with an `apiVersion`.
    public static func requested(by execInfo: String?) -> Result<Self, HostTokenProblem> {
        guard let execInfo, !execInfo.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return .success(.v1) }
        guard let object = try? JSONSerialization.jsonObject(with: Data(execInfo.utf8)) as? [String: Any],
            let apiVersion = object["apiVersion"] as? String
        else {
            return .failure(HostTokenProblem("KUBERNETES_EXEC_INFO is not an ExecCredential with an apiVersion", exitStatus: 78))
        }
        guard let version = Self(rawValue: apiVersion) else {
            return .failure(
                HostTokenProblem(
                    "KUBERNETES_EXEC_INFO asks for \(LogText.untrusted(apiVersion)); kube-credential answers \(Self.v1.rawValue) and \(Self.v1beta1.rawValue): set one of them as the kubeconfig's exec apiVersion",
                    exitStatus: 78
                )
            )
        }
        return .success(version)
    }
}

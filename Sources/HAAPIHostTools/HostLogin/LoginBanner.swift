import Foundation
import HAAPIGateway

/// What `login` shows the person before the sign-in: where to sign in, the code to compare or enter, and (with `--qr`)
/// the link as a QR code for a phone. Never a secret: the device code and the link's ticket stay out of logs, and the
/// link itself is only printed here.
public enum LoginBanner {
    /// The banner of a local gateway: its single-use pairing link and the confirmation code the page shows.
    /// - Parameters:
    ///   - link: The pairing link.
    ///   - code: The confirmation code.
    ///   - lifetimeSeconds: How long the link works.
    ///   - qr: Whether to draw the link as a QR code.
    public static func pairing(link: String, code: String, lifetimeSeconds: Int, qr: Bool) -> String {
        """
        To sign in, open this link on your phone or another computer (it works once, for \(duration(lifetimeSeconds))):

            \(link)

        \(picture(of: link, qr: qr))The page shows the code \(code); continue there only if it matches.
        Waiting for the sign-in…

        """
    }

    /// The banner of a device authorization at a central gateway (RFC 8628 §3.3): the link with the code in it when the
    /// gateway gives one (and its QR code), and the address and code to type otherwise.
    /// - Parameters:
    ///   - grant: The device authorization.
    ///   - qr: Whether to draw the link as a QR code.
    public static func device(_ grant: DeviceAuthorizationGrant, qr: Bool) -> String {
        let lifetime = duration(Int(grant.expiresIn.components.seconds))
        let typing = "go to \(grant.verificationURI.absoluteString) and enter the code \(grant.userCode)"
        guard let complete = grant.verificationURIComplete?.absoluteString else {
            return """
                To sign in, on your phone or another computer \(typing) (within \(lifetime)):

                    \(grant.userCode)

                \(picture(of: grant.verificationURI.absoluteString, qr: qr))Waiting for the sign-in…

                """
        }
        return """
            To sign in, open this link on your phone or another computer (within \(lifetime)):

                \(complete)

            \(picture(of: complete, qr: qr))Or \(typing).
            Continue there only if the page shows the code \(grant.userCode).
            Waiting for the sign-in…

            """
    }

    /// `10 minutes` from two minutes up, `90 seconds` below.
    static func duration(_ seconds: Int) -> String { seconds >= 120 ? "\(seconds / 60) minutes" : "\(seconds) seconds" }

    private static func picture(of link: String, qr: Bool) -> String {
        guard qr, let code = try? QRCode.encode(link) else { return "" }
        return code.terminalString() + "\n\n"
    }
}

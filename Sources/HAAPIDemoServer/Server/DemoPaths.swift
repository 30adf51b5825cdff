/// The demo server's URL paths (Curity-like).
enum DemoPaths {
    /// Curity's anonymous endpoint: the issuer, with the metadata and the JWKS under it ([OIDCMETA]).
    static let anonymous = "/oauth/v2/oauth-anonymous"
    /// OpenID Connect discovery under the issuer (OpenID Connect Discovery 1.0 §4), where Curity publishes it.
    static let openIDConfiguration = anonymous + "/.well-known/openid-configuration"
    static let authorize = "/oauth/v2/oauth-authorize"
    static let token = "/oauth/v2/oauth-token"
    static let revoke = "/oauth/v2/oauth-revoke"
    static let introspect = "/oauth/v2/oauth-introspect"
    static let userinfo = "/oauth/v2/oauth-userinfo"
    static let jwks = anonymous + "/jwks"
    /// RFC 8414 §3.1 metadata for the issuer: the well-known prefix, then the issuer's path, where Curity serves it when
    /// `authorization-server/expose-metadata` is on (https://curity.io/docs/idsvr/latest/token-service-admin-guide/metadata.html).
    static let oauthAuthorizationServerMetadata = "/.well-known/oauth-authorization-server" + anonymous

    static let authenticate = "/authn/authenticate"
    static let htmlForm = "/authn/authenticate/html-form"
    static let email = "/authn/authenticate/email"
    static let approval = "/authn/authenticate/approval"
    static let forgotPassword = "/authn/authenticate/html-form/forgot-password"
    static let registerCreate = "/authn/register/create/html-form"
    static let notice = "/authn/authenticate/html-form/notice"
    static let noticeEmailCopy = "/authn/authenticate/html-form/notice/email-copy"
    static let enterOTP = "/authn/authenticate/email/enter-otp"
    static let approvalPoller = "/authn/authenticate/approval/poller"
    static let approvalCancel = "/authn/authenticate/approval/cancel"
    static let bankID = "/authn/authenticate/bankid"
    static let externalBrowser = "/authn/authenticate/external-browser"
    static let externalBrowserLaunch = "/authn/authenticate/external-browser/launch"
    static let passkey = "/authn/authenticate/passkey"
    static let passkeyRegistration = "/authn/register/create/passkey"
    static let passkeyAssertion = "/authn/authenticate/passkey/assertion"
    static let smsSendCode = "/authn/authenticate/sms/send-code"
    static let smsVerifyCode = "/authn/authenticate/sms/verify-code"
    /// The image behind the `illustration` link of the approval waiting step; served only with the flow's credentials.
    static let waitingImage = "/authn/images/waiting.png"
    static let consent = "/authn/consent"
    static let cancel = "/authn/authenticate/cancel"

    static let outbox = "/demo/outbox"
    static let approvePrefix = "/demo/approve/"
}

extension HAAPIFlow {
    /// Whether the server has sent this flow a `DPoP-Nonce`: it runs with nonces (Curity's HAAPI client with
    /// `use-legacy-dpop` false, the default since 8.0, [DPOPNONCE], [UPG80]); false before the first answer, and for a
    /// server without nonces.
    public var receivedDPoPNonce: Bool { dpopNonce != nil }
}

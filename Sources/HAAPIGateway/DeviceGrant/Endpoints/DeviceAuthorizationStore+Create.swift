extension DeviceAuthorizationStore {
    /// Starts a device authorization for `client` from an address not known (tests, a Unix socket).
    func create(client: DeviceClient, scopes: [String]?) async throws(GatewayError) -> (deviceCode: String, authorization: DeviceAuthorization)? {
        try await create(client: client, scopes: scopes, address: nil)
    }
}

/// Throwaway TLS material for the handshake tests, generated with openssl for these tests only (P-256, valid ten years):
/// a test CA, a server certificate for `127.0.0.1`/`localhost` and a client certificate, both signed by that CA.
/// Not a secret of anything.
enum TLSTestMaterial {
    static let caCertificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBhTCCASugAwIBAgIUOmlxo+QSxh9PXJYv1h6r7AHdHfQwCgYIKoZIzj0EAwIw
        GDEWMBQGA1UEAwwNaGFhcGktdGVzdC1jYTAeFw0yNjExMjIwMjQwMzBaFw0zNjEx
        MTkwMjQwMzBaMBgxFjAUBgNVBAMMDWhhYXBpLXRlc3QtY2EwWTATBgcqhkjOPQIB
        BggqhkjOPQMBBwNCAARaMn7+Djgspk5ogLag52eVbCLccTjo/sIBA7MF62ss8BTD
        GD8qAfYcrKgIKNqJiH8rMBco6qksNAejCwSWzwbso1MwUTAdBgNVHQ4EFgQU3GoQ
        iGrXynOcxJhX7zqNWmn3f5gwHwYDVR0jBBgwFoAU3GoQiGrXynOcxJhX7zqNWmn3
        f5gwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiARiCzVvVperaSQ
        j7DZwKJfljj+7BZ+zcL2LdcUMiN+8AIhAPGxPKnB697NuBbb+pWxAGh7tWNhxB7F
        +HeDDu8tOXl6
        -----END CERTIFICATE-----
        """

    static let serverCertificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBoTCCAUegAwIBAgIUVo08Dsd5R4G+WChb5OkhF62MuFgwCgYIKoZIzj0EAwIw
        GDEWMBQGA1UEAwwNaGFhcGktdGVzdC1jYTAeFw0yNjExMjIwMjQwMzBaFw0zNjEx
        MTkwMjQwMzBaMBQxEjAQBgNVBAMMCWxvY2FsaG9zdDBZMBMGByqGSM49AgEGCCqG
        SM49AwEHA0IABKQHHz9HALGZvImL7378oP8RAFRcIUo3Up45Jy2fNJHvoeIb3rw1
        VZVKREXEFzr4CwtcWEbyRN4BJcgRdZ52f2ajczBxMBoGA1UdEQQTMBGHBH8AAAGC
        CWxvY2FsaG9zdDATBgNVHSUEDDAKBggrBgEFBQcDATAdBgNVHQ4EFgQU0Y79vFFJ
        RtghbSYZ9b5BtURsw9cwHwYDVR0jBBgwFoAU3GoQiGrXynOcxJhX7zqNWmn3f5gw
        CgYIKoZIzj0EAwIDSAAwRQIhAMmkGOHKxbLEJ8xuVocuqkVDbNmvCTunt2uoiEt7
        bDwAAiAtLYQhmvav7iFfHdl3xANS5qPlKPD8y8ecLeXMAx6fuQ==
        -----END CERTIFICATE-----
        """

    static let serverPrivateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg8hV5B5QwXiAthg80
        RMLTin1SLaTUtamyuSZ+0y+o0sGhRANCAASkBx8/RwCxmbyJi+9+/KD/EQBUXCFK
        N1KeOSctnzSR76HiG968NVWVSkRFxBc6+AsLXFhG8kTeASXIEXWedn9m
        -----END PRIVATE KEY-----
        """

    static let clientCertificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBiDCCAS6gAwIBAgIUVo08Dsd5R4G+WChb5OkhF62MuFkwCgYIKoZIzj0EAwIw
        GDEWMBQGA1UEAwwNaGFhcGktdGVzdC1jYTAeFw0yNjExMjIwMjQwMzBaFw0zNjEx
        MTkwMjQwMzBaMBcxFTATBgNVBAMMDGRlbW8tZ2F0ZXdheTBZMBMGByqGSM49AgEG
        CCqGSM49AwEHA0IABNqJZOReqJWxJwPye8eJTK8G9OHWfmfLnziFwBl5awchtONF
        ro82PHhKYFSYXqizLWsxI+zTDt8NdJWGrWSwkRujVzBVMBMGA1UdJQQMMAoGCCsG
        AQUFBwMCMB0GA1UdDgQWBBT+rTyRUrYoKYr75+kovRejP0d++jAfBgNVHSMEGDAW
        gBTcahCIatfKc5zEmFfvOo1aafd/mDAKBggqhkjOPQQDAgNIADBFAiBevXMZzkR7
        zvXX2V9yI5OA9hwZTffs/Ih0zZ89Ex3TpQIhAK1Dm5Reb/p+5ucipgnnmebXh7N3
        UrmpA7QUQZ6ddyof
        -----END CERTIFICATE-----
        """

    static let clientPrivateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg9mU4d1bpDQi8L8wx
        ba4LTvSN7vfFnh/kESWD/Kz2EeGhRANCAATaiWTkXqiVsScD8nvHiUyvBvTh1n5n
        y584hcAZeWsHIbTjRa6PNjx4SmBUmF6osy1rMSPs0w7fDXSVhq1ksJEb
        -----END PRIVATE KEY-----
        """
}

/// Throwaway test key material, generated for these tests only (self-signed, P-256). Not a secret of anything.
enum TestKeyMaterial {
    static let certificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBjjCCATOgAwIBAgIUSnz1LJR1VQWN7nkm+7OytUfa00AwCgYIKoZIzj0EAwIw
        HDEaMBgGA1UEAwwRaGFhcGktdGVzdC1jbGllbnQwHhcNMjYxMTIyMDE0NTQ3WhcN
        MzYxMTE5MDE0NTQ3WjAcMRowGAYDVQQDDBFoYWFwaS10ZXN0LWNsaWVudDBZMBMG
        ByqGSM49AgEGCCqGSM49AwEHA0IABK2Vp7vX120cbvX29R+4XvJcq1GIHC7XNGJ2
        oycVY1D0Ou6cmnTHCqgvbfYFUxXs65xdHmS9oxKlhm0IbVri2O+jUzBRMB0GA1Ud
        DgQWBBTcKUQobwHZ4Y2Y4bV3+f3BVwJpQTAfBgNVHSMEGDAWgBTcKUQobwHZ4Y2Y
        4bV3+f3BVwJpQTAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0kAMEYCIQCw
        E5IL0QpSw3GhOK7UL9dhIWdSvKTAp8/euD2br48VVwIhALVXc5DxDshdIxU9wfHP
        eNoUnsx4MlNtgpwqHrpiytGg
        -----END CERTIFICATE-----
        """

    static let privateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgl+b+wlfML9DoeG+U
        AD5OKyxxXe+YqPFQUNpwa4F/8lehRANCAAStlae719dtHG719vUfuF7yXKtRiBwu
        1zRidqMnFWNQ9DrunJp0xwqoL232BVMV7OucXR5kvaMSpYZtCG1a4tjv
        -----END PRIVATE KEY-----
        """
}

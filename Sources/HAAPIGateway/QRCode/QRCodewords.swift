/// The codeword sequence of a byte-mode QR code: data bits padded to capacity, split into blocks, each with its

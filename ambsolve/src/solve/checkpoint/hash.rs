//! The two hashes of a checkpoint file: FNV-1a for the fingerprint of a search, CRC-32 for
//! the check that ends each line.

/// A 64-bit FNV-1a hash: stable across runs, platforms and Rust versions, unlike the
/// standard library's hasher, so that a checkpoint written today is recognised tomorrow.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fnv(u64);

impl Fnv {
    pub(crate) fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    pub(crate) fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    pub(crate) fn text(&mut self, text: &str) {
        self.bytes(text.as_bytes());
        // A separator, so that "ab" + "c" and "a" + "bc" differ.
        self.bytes(&[0xff]);
    }

    pub(crate) fn number(&mut self, n: u64) {
        self.bytes(&n.to_le_bytes());
    }

    pub(crate) fn finish(self) -> u64 {
        self.0
    }
}

/// CRC-32 (the IEEE polynomial of zip, PNG and Ethernet), fed piece by piece. Unlike a
/// general-purpose hash it detects *every* error confined to 32 consecutive bits of
/// what it covers (one or a few changed bytes of a line), and any other with
/// probability 1 - 2^-32.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Crc(u32);

/// The remainders of every byte, computed at compile time.
const CRC_TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut n = 0;
    while n < 256 {
        let mut c = n as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 == 1 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        table[n] = c;
        n += 1;
    }
    table
};

impl Crc {
    pub(crate) fn new() -> Self {
        Crc(0xffff_ffff)
    }

    pub(crate) fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = CRC_TABLE[((self.0 ^ u32::from(b)) & 0xff) as usize] ^ (self.0 >> 8);
        }
    }

    /// The CRC of everything fed so far (more may be fed after).
    pub(crate) fn value(&self) -> u32 {
        self.0 ^ 0xffff_ffff
    }

    /// The CRC of everything fed so far, then of `text`, as 8 lower-case hex digits.
    pub(crate) fn check_of(mut self, text: &str) -> String {
        self.bytes(text.as_bytes());
        format!("{:08x}", self.value())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_is_the_published_function() {
        // FNV-1a 64 of "a" (from the reference test vectors).
        let mut h = Fnv::new();
        h.bytes(b"a");
        assert_eq!(h.finish(), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn crc_is_the_published_function_fed_in_any_pieces() {
        // The check value of CRC-32/ISO-HDLC.
        let mut c = Crc::new();
        c.bytes(b"123456789");
        assert_eq!(c.value(), 0xcbf4_3926);
        let mut pieces = Crc::new();
        pieces.bytes(b"1234");
        assert_eq!(pieces.check_of("56789"), "cbf43926");
    }

    #[test]
    fn crc_sees_every_change_of_one_byte() {
        let line = b"done 12 345 678 9012";
        let mut whole = Crc::new();
        whole.bytes(line);
        for at in 0..line.len() {
            for b in 0..=255u8 {
                if b == line[at] {
                    continue;
                }
                let mut changed = line.to_vec();
                changed[at] = b;
                let mut c = Crc::new();
                c.bytes(&changed);
                assert_ne!(c.value(), whole.value(), "byte {at} -> {b}");
            }
        }
    }
}

import CQREncode

/// An address as a QR code drawn in the terminal, for a phone's camera (`web.pair`). libqrencode
/// makes the code; two rows of modules go in one line of half blocks, dark on a forced light
/// background (with its quiet zone), so it scans on dark and light terminal themes alike.
enum QRCode {
    static func lines(_ text: String) -> [String]? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let quiet = 2
        func dark(_ row: Int, _ column: Int) -> Bool {
            guard (0..<width).contains(row), (0..<width).contains(column) else { return false }
            return code.pointee.data[row * width + column] & 1 == 1
        }
        var lines: [String] = []
        for row in stride(from: -quiet, to: width + quiet, by: 2) {
            var line = "\u{1B}[30;107m"
            for column in -quiet..<(width + quiet) {
                switch (dark(row, column), dark(row + 1, column)) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line + "\u{1B}[0m")
        }
        return lines
    }
}

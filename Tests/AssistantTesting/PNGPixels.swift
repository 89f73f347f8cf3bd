import CCairo
import Foundation

/// A PNG a command drew, read back with Cairo: its size and how many pixels have a colour, so a
/// test can tell a chart with its bars or lines from an empty one.
public struct PNGPixels {
    public let width: Int
    public let height: Int
    /// Pixels as (red, green, blue), row by row.
    let rgb: [(UInt8, UInt8, UInt8)]

    public init(path: String) throws {
        guard let surface = cairo_image_surface_create_from_png(path) else { throw Unreadable(path: path) }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface) else {
            throw Unreadable(path: path)
        }
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        var rgb: [(UInt8, UInt8, UInt8)] = []
        rgb.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width {
                // ARGB32 in native (little-endian) order: B, G, R, A.
                let p = data + y * stride + x * 4
                rgb.append((p[2], p[1], p[0]))
            }
        }
        self.rgb = rgb
    }

    public struct Unreadable: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "\(path) is not a PNG Cairo can read" }
    }

    /// Pixels within 2 of `colour` in each channel (Cairo rounds colours its own way).
    public func count(_ colour: (UInt8, UInt8, UInt8)) -> Int {
        rgb.filter { abs(Int($0.0) - Int(colour.0)) <= 2 && abs(Int($0.1) - Int(colour.1)) <= 2 && abs(Int($0.2) - Int(colour.2)) <= 2 }.count
    }

    /// PictureKit's colours as Cairo writes them.
    public static let blue: (UInt8, UInt8, UInt8) = (41, 107, 191)
    public static let orange: (UInt8, UInt8, UInt8) = (230, 125, 33)
    public static let red: (UInt8, UInt8, UInt8) = (204, 38, 38)
}

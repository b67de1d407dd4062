/// What stacking needs of a photo's picture, from its thumbnail (already
/// decoded for the grid): a 64-bit difference hash, to tell the same scene
/// from another, and a sharpness score, to choose a stack's cover.
public struct PhotoSignature: Hashable, Sendable {
  /// dHash: a 9x8 grey copy, one bit per pair of neighbours in a row (set
  /// when the left one is darker). Scaling, compression and small shifts
  /// change few bits; another scene changes about half.
  public var hash: UInt64
  /// The variance of the Laplacian on a grey copy of at most 512 pixels a
  /// side, weighted towards the middle (where the subject usually is):
  /// higher is sharper. Only comparable between photos of one scene.
  public var sharpness: Double

  public init(hash: UInt64, sharpness: Double) {
    self.hash = hash
    self.sharpness = sharpness
  }

  public init(of image: PixelImage) {
    // One grey copy (the thumbnail's own size, at most 512 a side) serves both.
    let longest = max(image.width, image.height)
    let scale = longest > 512 ? 512.0 / Double(longest) : 1
    let grey = GreyImage(
      image, width: max(9, Int(Double(image.width) * scale)), height: max(8, Int(Double(image.height) * scale)))
    self.init(hash: Self.differenceHash(grey), sharpness: Self.sharpness(grey))
  }

  /// Bits that differ between two hashes.
  public func distance(to other: PhotoSignature) -> Int { (hash ^ other.hash).nonzeroBitCount }

  static func differenceHash(_ grey: GreyImage) -> UInt64 {
    let small = grey.resized(width: 9, height: 8)
    var hash: UInt64 = 0
    for y in 0..<8 {
      for x in 0..<8 {
        hash <<= 1
        if small.value(x, y) < small.value(x + 1, y) { hash |= 1 }
      }
    }
    return hash
  }

  static func sharpness(_ grey: GreyImage) -> Double {
    let width = grey.width, height = grey.height
    guard width >= 3, height >= 3 else { return 0 }
    let cx = Float(width - 1) / 2, cy = Float(height - 1) / 2
    // Full weight at the middle, a third at the corners.
    let columnWeights = (0..<width).map { x -> Float in
      let dx = (Float(x) - cx) / cx
      return dx * dx / 3
    }
    var weighted: Double = 0, weightedSquares: Double = 0, weights: Double = 0
    grey.values.withUnsafeBufferPointer { values in
      for y in 1..<(height - 1) {
        let dy = (Float(y) - cy) / cy
        let rowWeight = 1 - dy * dy / 3
        var rowSum: Float = 0, rowSquares: Float = 0, rowWeights: Float = 0
        let row = y * width
        for x in 1..<(width - 1) {
          let i = row + x
          let laplacian: Float = values[i - 1] + values[i + 1] + values[i - width] + values[i + width] - 4 * values[i]
          let weight = rowWeight - columnWeights[x]
          rowSum += weight * laplacian
          rowSquares += weight * laplacian * laplacian
          rowWeights += weight
        }
        weighted += Double(rowSum)
        weightedSquares += Double(rowSquares)
        weights += Double(rowWeights)
      }
    }
    guard weights > 0 else { return 0 }
    let mean = weighted / weights
    return max(0, weightedSquares / weights - mean * mean)
  }
}

/// A grey copy of an image at a given size, each pixel the mean of the
/// block of the original it covers.
struct GreyImage {
  let width: Int
  let height: Int
  var values: [Float]

  init(width: Int, height: Int, values: [Float]) {
    self.width = width
    self.height = height
    self.values = values
  }

  init(_ image: PixelImage, width: Int, height: Int) {
    self.width = width
    self.height = height
    values = [Float](repeating: 0, count: width * height)
    let sourceWidth = image.width, sourceHeight = image.height
    guard sourceWidth > 0, sourceHeight > 0, let pixels = image.raw.pixels else { return }
    values.withUnsafeMutableBufferPointer { out in
      if width == sourceWidth && height == sourceHeight {
        // The thumbnail's own size: one pixel each.
        for i in 0..<(width * height) {
          let p = pixels + i * 4
          out[i] = 0.299 * Float(p[0]) + 0.587 * Float(p[1]) + 0.114 * Float(p[2])
        }
        return
      }
      for y in 0..<height {
        let top = y * sourceHeight / height, bottom = max(top + 1, (y + 1) * sourceHeight / height)
        for x in 0..<width {
          let left = x * sourceWidth / width, right = max(left + 1, (x + 1) * sourceWidth / width)
          var sum: Float = 0
          for row in top..<bottom {
            var p = pixels + (row * sourceWidth + left) * 4
            for _ in left..<right {
              sum += 0.299 * Float(p[0]) + 0.587 * Float(p[1]) + 0.114 * Float(p[2])
              p += 4
            }
          }
          out[y * width + x] = sum / Float((bottom - top) * (right - left))
        }
      }
    }
  }

  /// A smaller copy, each value the mean of the block it covers.
  func resized(width newWidth: Int, height newHeight: Int) -> GreyImage {
    var out = [Float](repeating: 0, count: newWidth * newHeight)
    for y in 0..<newHeight {
      let top = y * height / newHeight, bottom = max(top + 1, (y + 1) * height / newHeight)
      for x in 0..<newWidth {
        let left = x * width / newWidth, right = max(left + 1, (x + 1) * width / newWidth)
        var sum: Float = 0
        for row in top..<bottom { for column in left..<right { sum += values[row * width + column] } }
        out[y * newWidth + x] = sum / Float((bottom - top) * (right - left))
      }
    }
    return GreyImage(width: newWidth, height: newHeight, values: out)
  }

  func value(_ x: Int, _ y: Int) -> Float { values[y * width + x] }
}

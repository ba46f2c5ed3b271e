// The record samples of the documents use CoreLocation's coordinate type.
// Where CoreLocation does not exist (Linux), a stand-in with the same shape
// lets them run as written.
#if canImport(CoreLocation)
    import CoreLocation
#else
    typealias CLLocationDegrees = Double

    struct CLLocationCoordinate2D: Codable, Equatable {
        var latitude: CLLocationDegrees
        var longitude: CLLocationDegrees
    }
#endif

// The record samples of the documents use CoreLocation's coordinate type.
// Where CoreLocation does not exist (Linux), a stand-in with the same shape
// lets them run as written.
#if canImport(CoreLocation)
    import CoreLocation
#else
    package typealias CLLocationDegrees = Double

    package struct CLLocationCoordinate2D: Codable, Equatable {
        package var latitude: CLLocationDegrees
        package var longitude: CLLocationDegrees

        package init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }
#endif

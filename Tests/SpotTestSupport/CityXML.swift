/// A small city as OSM XML: `cafes` cafés then `restaurants` restaurants, each with a name of
/// its own (so that none is merged), 100 m apart, their ids from `firstID`.
public func cityXML(cafes: Int, restaurants: Int = 0, firstID: Int = 1) -> String {
    var xml = "<?xml version='1.0' encoding='UTF-8'?>\n<osm version=\"0.6\">\n"
    for number in 0..<(cafes + restaurants) {
        let kind = number < cafes ? "cafe" : "restaurant"
        let id = firstID + number
        xml += """
              <node id="\(id)" lat="\(60.1 + Double(number) * 0.001)" lon="24.9">\
            <tag k="amenity" v="\(kind)"/><tag k="name" v="Place \(id)"/></node>

            """
    }
    return xml + "</osm>\n"
}

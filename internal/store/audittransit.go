package store

// transitChecks hold each transit's state to its lines: one on its way has
// a line with units due and, while InTransit, nothing received or rejected;
// one Received has none due; and a transfer's lines are of their source
// lots' item and owner.
var transitChecks = []auditCheck{
	{`SELECT r.id FROM transits r
	  WHERE r.status NOT IN ('InTransit', 'Partial', 'Received', 'Canceled')
		OR r.status IN ('InTransit', 'Partial') AND NOT EXISTS (
			SELECT 1 FROM transit_lines l WHERE l.transit_id = r.id AND l.received + l.rejected < l.units)
		OR r.status = 'Received' AND EXISTS (
			SELECT 1 FROM transit_lines l WHERE l.transit_id = r.id AND l.received + l.rejected < l.units)
		OR r.status = 'InTransit' AND EXISTS (
			SELECT 1 FROM transit_lines l WHERE l.transit_id = r.id AND (l.received > 0 OR l.rejected > 0))`,
		1, "transit %d: its status does not fit what its lines have due"},
	{`SELECT l.transit_id, l.line, l.rec_no
	  FROM transit_lines l JOIN transits r ON r.id = l.transit_id
	  LEFT JOIN lots s ON s.rec_no = l.rec_no
	  WHERE r.kind = 'transfer' AND (s.rec_no IS NULL OR s.part_no <> l.part_no OR s.owner <> l.owner)`,
		3, "transit %d line %d: its source lot %d is not of its item and owner"},
}

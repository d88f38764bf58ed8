# The pgbench scripts of bench/pgdirect.sh: for a receive, an issue and a
# move, the statements the server sends to PostgreSQL for one request, as
# pg_stat_statements recorded them on 2026-11-27 (store/receive.go
# receiveLot, store/withdraw.go, store/levels.go growLevels and changeLevel,
# store/ledgerwrite.go), one transaction per request, with pgbench's
# variables where the server binds parameters (items, whs and owners are
# given with -D). Left out: the counters, which the server writes once per
# batch, and the idempotency key, which the load does not send. The time
# is the database's clock, read where the server binds its own. Source it;
# pg_scripts DIR writes DIR/receive.sql, DIR/issue.sql and DIR/move.sql.

# NOW is the request's time, in microseconds.
NOW='CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT)'

# lot_columns: the columns a new lot is inserted with.
lot_columns() {
  echo "INSERT INTO lots (associate, part_no, wid, spot, units, received, shipped, serial, serial2, rfid_tag, remark, owner,
	hold, job_id, active, reference, net_weight, gross_weight, price, expires, supplier, line, modified)"
}

# grow_levels UNITS KEY...: one upsert of the level rows with the keys
# (each "wid, owner" of item :item), UNITS added to in_stock (growLevels).
grow_levels() {
  local units=$1 values="" key
  shift
  for key in "$@"; do values+="${values:+, }(:item, $key, $units, 0, 0, 0, 0, 0, $NOW)"; done
  echo "INSERT INTO levels (part_no, wid, owner, in_stock, on_hold, committed, packed, on_order, asn, modified)
	VALUES $values
	ON CONFLICT (part_no, wid, owner) DO UPDATE SET
		in_stock = levels.in_stock + excluded.in_stock,
		on_hold = levels.on_hold + excluded.on_hold,
		committed = levels.committed + excluded.committed,
		packed = levels.packed + excluded.packed,
		on_order = levels.on_order + excluded.on_order,
		asn = levels.asn + excluded.asn,
		modified = CASE WHEN excluded.modified > levels.modified THEN excluded.modified ELSE levels.modified + 1 END
	RETURNING part_no, wid, owner, in_stock, on_hold, committed, packed, on_order, asn;"
}

# shrink_levels UNITS KEY...: one UPDATE per level row (changeLevel), each
# taking UNITS from in_stock; a KEY is "WID OWNER".
shrink_levels() {
  local units=$1 wid owner
  shift
  while [ $# -gt 0 ]; do
    read -r wid owner <<<"$1"
    shift
    echo "UPDATE levels SET in_stock = in_stock + -$units, on_hold = on_hold + 0, committed = committed + 0,
		packed = packed + 0, on_order = on_order + 0, asn = asn + 0,
		modified = CASE WHEN $NOW > modified THEN $NOW ELSE modified + 1 END
	WHERE part_no = :item AND wid = $wid AND owner = $owner
	RETURNING part_no, wid, owner, in_stock, on_hold, committed, packed, on_order, asn;"
  done
}

# draw: the candidate lots of :item in :wid for :owner, the first four
# locked (firstCandidates). pgbench keeps the last row's values (\aset);
# what follows, up to \endif, runs only when that lot holds more than the
# unit drawn (the server would ship a lot it empties): otherwise the
# transaction ends having changed nothing.
draw() {
  echo "\\set rec_no 0
SELECT rec_no, units, allocated, hold, spot, received
	FROM lots
	WHERE part_no = :item AND wid = :wid AND owner = :owner AND shipped IS NULL AND units > allocated AND NOT hold
	ORDER BY received, rec_no
	LIMIT 4 FOR UPDATE \\aset
\\if :rec_no > 0 and :units > 1000000"
}

# take: one unit out of the drawn lot (takeFromLot).
take() {
  echo "UPDATE lots SET
		units = units - 1000000,
		allocated = allocated - 0,
		modified = CASE WHEN $NOW > modified THEN $NOW ELSE modified + 1 END
	WHERE rec_no = :rec_no AND units > 1000000
	RETURNING units;"
}

# ledger TYPE TO SPOT TO-SPOT UNITS REASON DETAILS: the ledger's row and its
# one line, for lot :rec_no.
ledger() {
  echo "INSERT INTO transactions (type, time, client_id, part_no, wid, to_wid, spot, to_spot, units, reason_code, reference,
		remark, details, owner)
	SELECT '$1', $NOW, 'cl-bench', :item, :wid, $2, $3, $4, $5, $6, '', '', '$7', :owner
	FROM items
	WHERE part_no = :item AND NOT discontinued
	RETURNING id \\gset
INSERT INTO transaction_lines (transaction_id, line, rec_no, part_no, wid, spot, units)
	VALUES (:id, 1, :rec_no, :item, :wid, $3, $5);"
}

pg_scripts() {
  local head='\set item random(1, :items)
\set wid random(1, :whs)
\set owner random(1, :owners)'
  {
    echo "$head"
    echo "BEGIN;"
    lot_columns
    echo "	SELECT '', i.part_no, :wid, 'R-01', 5000000, $NOW, NULL, '', '', '', '', :owner, FALSE, 0, TRUE, '', 0, 0,
		CASE WHEN CAST(0 AS BIGINT) <> 0 THEN 0 ELSE COALESCE(l.unit_price, 0) END,
		NULL,
		CASE WHEN CAST(0 AS BIGINT) <> 0 THEN 0 ELSE COALESCE(o.party, 0) END,
		0, $NOW
	FROM items i
	LEFT JOIN orders o ON o.kind = 'purchase' AND o.order_no_key = NULL
	LEFT JOIN order_lines l ON l.order_id = o.id AND l.line_no = NULL
	WHERE i.part_no = :item
	  AND NOT i.discontinued
	  AND EXISTS (SELECT 1 FROM warehouses WHERE wid = :wid AND active)
	  AND (CAST(:owner AS BIGINT) = 0 OR EXISTS (
		SELECT 1 FROM parties WHERE id = :owner AND kind = 'customer' AND active))
	  AND (CAST(0 AS BIGINT) = 0 OR i.dflt_owner = :owner)
	RETURNING rec_no, part_no, wid, spot, units, received, shipped, serial, serial2, rfid_tag, remark, owner,
		hold, job_id, active, reference, net_weight, gross_weight, price, expires, supplier, line, modified,
		COALESCE((SELECT p.name FROM parties p WHERE p.id = lots.owner), '') AS owner_name,
		(SELECT short_id FROM items WHERE part_no = lots.part_no) AS short_id,
		(SELECT description FROM items WHERE part_no = lots.part_no) AS description,
		(SELECT name FROM warehouses WHERE wid = lots.wid) AS warehouse \\gset"
    grow_levels 5000000 "0, -1" "0, :owner" ":wid, -1" ":wid, :owner"
    ledger receive NULL "'R-01'" NULL 5000000 1 '{"spot":"R-01"}'
    echo "END;"
  } >"$1/receive.sql"
  {
    echo "$head"
    echo "BEGIN;"
    echo "SELECT short_id, dflt_owner FROM items WHERE part_no = :item;"
    draw
    take
    shrink_levels 1000000 "0 -1" "0 :owner" ":wid -1" ":wid :owner"
    ledger issue NULL "''" NULL 1000000 20 '{}'
    echo '\endif'
    echo "END;"
  } >"$1/issue.sql"
  {
    echo "$head"
    echo '\set to (:wid % :whs) + 1
\set spot random(0, 20)'
    echo "BEGIN;"
    echo "SELECT short_id, dflt_owner, (SELECT active FROM warehouses WHERE wid = :to) FROM items WHERE part_no = :item;"
    draw
    lot_columns
    echo "	SELECT associate, part_no, :to, 'M-' || :spot, 1000000, received, NULL, serial, serial2, rfid_tag, remark, owner,
		hold, job_id, active, reference, net_weight, gross_weight, price, expires, supplier, line, $NOW
	FROM lots
	WHERE rec_no = :rec_no
	RETURNING rec_no AS new_rec_no \\gset"
    take
    # The item's totals over warehouses do not change: only the source's
    # two rows and the destination's two.
    shrink_levels 1000000 ":wid -1" ":wid :owner"
    grow_levels 1000000 ":to, -1" ":to, :owner"
    ledger move :to "''" "'M-' || :spot" 1000000 NULL '{}'
    echo '\endif'
    echo "END;"
  } >"$1/move.sql"
}

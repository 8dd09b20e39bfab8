// The client SDK in one file: a player's token, a live subscription, an event,
// the missions, a claim. Run it against `npm start` from a project where the
// SDK is installed (npm run sdk:pack, then npm install <the .tgz it prints>):
//   QUESTLINE_APP_SECRET=$(cat <questline>/.data/demo-app-secret) node sdk-quickstart.mjs
import { createQuestlineClient, ClaimNotReadyError } from '@questline/sdk';

const baseUrl = process.env.QUESTLINE_URL ?? 'http://localhost:3000';
const appId = process.env.QUESTLINE_APP_ID ?? 'demo';
const userId = process.env.QUESTLINE_USER_ID ?? `player-${Date.now()}`;

async function main() {
  // 1. On your game backend, which holds the app secret (never ship it to a game client): a token for one player.
  const backend = createQuestlineClient({ baseUrl });
  const { accessToken } = await backend.issueToken({ appId, appSecret: process.env.QUESTLINE_APP_SECRET ?? '', userId });

  // 2. In the game client: typed calls and a live subscription that reconnects (and polls) by itself.
  const ql = createQuestlineClient({ baseUrl, getToken: () => accessToken });
  let opened, credited;
  const open = new Promise((resolve) => (opened = resolve));
  const balanceChanged = new Promise((resolve) => (credited = resolve));
  const sub = ql.subscribe(
    (update) => {
      console.log(`update ${update.type}`, JSON.stringify(update.data));
      if (update.type === 'balance.changed') credited();
    },
    { onStateChange: (state) => state === 'open' && opened() },
  );
  await open; // only so this script sees the updates of the event below

  const sent = await ql.sendEvent({ name: 'match_played', payload: { mode: 'ranked' } }); // userId: the token's subject
  console.log('missions updated:', sent.missionsUpdated.join(', '));

  const { missions, progress } = await ql.listAllMissions();
  for (const m of missions) console.log(`mission ${m.id}: ${progress[m.id]?.status ?? (m.locked ? 'locked' : 'not started')}`);

  try {
    const claim = await ql.claimMission('first-match', { idempotencyKey: crypto.randomUUID() });
    console.log('claimed first-match:', JSON.stringify(claim.reward), 'balance', claim.balance?.amount);
    await balanceChanged;
  } catch (e) {
    if (!(e instanceof ClaimNotReadyError)) throw e;
    console.log('first-match is not ready:', e.message);
  }
  sub.close(); // when the player leaves the screen
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});

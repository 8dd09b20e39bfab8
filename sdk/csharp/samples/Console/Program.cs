// The walkthrough of sdk/csharp/README.md: a console "game" that gets a player's token from its "backend"
// (here the SDK's backend part, in the same process: in a real game the app secret stays on your server),
// subscribes to live updates, sends an event, lists the missions, claims the completed one and shows the balance.
//   QUESTLINE_URL=http://localhost:3000 QUESTLINE_APP_ID=my-game QUESTLINE_APP_SECRET=... QUESTLINE_USER_ID=player-1 mono Questline.Sample.exe
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using Questline;
using Questline.Backend;

public static class Program
{
    public static int Main()
    {
        // C# 7.2: no async Main; a console program waits on its one task.
        try
        {
            MainAsync().GetAwaiter().GetResult();
            return 0;
        }
        catch (QuestlineException e)
        {
            Console.Error.WriteLine("Questline said " + e.Status + " " + e.Code + ": " + e.Message + " (request " + e.RequestId + ")");
            return 1;
        }
    }

    private static string Env(string name)
    {
        var value = Environment.GetEnvironmentVariable(name);
        if (string.IsNullOrEmpty(value)) throw new InvalidOperationException(name + " is not set");
        return value;
    }

    private static async Task MainAsync()
    {
        var url = Env("QUESTLINE_URL");
        var userId = Env("QUESTLINE_USER_ID");

        // 1. The game asks its backend for a token; the backend holds the app secret.
        var backend = new QuestlineBackend(url);
        Func<CancellationToken, Task<string>> askBackend = async ct =>
            (await backend.IssueTokenAsync(Env("QUESTLINE_APP_ID"), Env("QUESTLINE_APP_SECRET"), userId, null, ct)).AccessToken;

        // 2. The client: it calls askBackend when it has no token, before the token expires, and after a 401.
        var client = new QuestlineClient(new QuestlineClientOptions { BaseUrl = url, TokenProvider = askBackend });

        // 3. Live updates. A console program has no SynchronizationContext: callbacks run on a pool thread, in order.
        //    In Unity, Subscribe from the main thread and they run there.
        var granted = new TaskCompletionSource<SdkUpdate>();
        var opened = new TaskCompletionSource<bool>();
        var subscription = client.Subscribe((update, meta) =>
        {
            Console.WriteLine("update: " + update.Type + " " + (update.Data.MissionId ?? update.Data.Currency) + " (" + meta.Source + ")");
            if (update.Type == SdkUpdate.TypeRewardGranted) granted.TrySetResult(update);
        }, new SubscribeOptions
        {
            OnStateChange = (state, previous) =>
            {
                Console.WriteLine("stream: " + state);
                if (state == SubscriptionState.Open) opened.TrySetResult(true);
            },
            OnError = e => Console.WriteLine("stream problem: " + e.Message),
        });
        await opened.Task;

        // 4. Something happened in the game.
        var sent = await client.SendEventAsync("match_played", new Dictionary<string, object> { { "mode", "ranked" } });
        Console.WriteLine("event " + sent.EventId + " updated: " + string.Join(", ", sent.MissionsUpdated.ToArray()));

        // 5. The missions, with this player's progress.
        var missions = await client.ListAllMissionsAsync();
        foreach (var mission in missions.Missions)
        {
            MissionProgress progress;
            missions.Progress.TryGetValue(mission.Id, out progress);
            Console.WriteLine("mission " + mission.Id + ": " + (progress == null ? "not started" : progress.Status + " " + progress.CurrentCount + "/" + progress.TargetCount));
        }

        // 6. Claim what is completed. The idempotency key makes a retry safe: keep it until you saw the answer.
        foreach (var kv in missions.Progress)
        {
            if (kv.Value.Status != ProgressStatus.Completed) continue;
            var key = Guid.NewGuid().ToString();
            try
            {
                var claim = await client.ClaimMissionAsync(kv.Key, key);
                Console.WriteLine("claimed " + kv.Key + ": " + claim.Reward.Kind + (claim.Balance != null ? ", " + claim.Balance.Currency + " now " + claim.Balance.Amount : ""));
            }
            catch (ClaimNotReadyException)
            {
                Console.WriteLine(kv.Key + " was claimed already");
            }
        }

        // 7. The stream tells the grant too (a demo waits at most 30 s for it).
        if (await Task.WhenAny(granted.Task, Task.Delay(30000)) == granted.Task) Console.WriteLine("the stream told the reward");

        foreach (var balance in (await client.GetBalancesAsync()).Balances) Console.WriteLine("balance " + balance.Currency + ": " + balance.Amount);
        subscription.Close();
    }
}

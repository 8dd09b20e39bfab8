// GENERATED from lib/contract by `npm run sdk:csharp` (scripts/sdk/generate-csharp.ts): do not edit.
// The error codes of the contract (lib/contract/errors.ts, the error table of the OpenAPI documents).
#pragma warning disable 1591
namespace Questline
{
    /// <summary>Every error code of the API; Unknown for a code this SDK does not know (a newer service).</summary>
    public enum ErrorCode
    {
        Unknown = 0,
        /// <summary>400 &lt;c&gt;validation_error&lt;/c&gt;: A body, query or path fails validation (the message names the field)</summary>
        ValidationError,
        /// <summary>400 &lt;c&gt;invalid_event&lt;/c&gt;: The POST /v1/events body fails validation (a timestamp outside the server clock’s bounds included)</summary>
        InvalidEvent,
        /// <summary>401 &lt;c&gt;invalid_credentials&lt;/c&gt;: Unknown app or wrong secret (the same answer for both)</summary>
        InvalidCredentials,
        /// <summary>401 &lt;c&gt;unauthorized&lt;/c&gt;: Missing, invalid, expired or revoked token</summary>
        Unauthorized,
        /// <summary>401 &lt;c&gt;invalid_signature&lt;/c&gt;: Webhook signature, app or timestamp rejected</summary>
        InvalidSignature,
        /// <summary>403 &lt;c&gt;user_mismatch&lt;/c&gt;: The event userId differs from the token subject</summary>
        UserMismatch,
        /// <summary>403 &lt;c&gt;forbidden&lt;/c&gt;: The caller may not do this</summary>
        Forbidden,
        /// <summary>403 &lt;c&gt;self_approval&lt;/c&gt;: The staff member (or the admin API key) who asked to publish cannot approve it: another editor or admin must</summary>
        SelfApproval,
        /// <summary>403 &lt;c&gt;not_requester&lt;/c&gt;: Only the staff member who asked for an approval can withdraw it; others reject it with a reason</summary>
        NotRequester,
        /// <summary>403 &lt;c&gt;grant_limit_exceeded&lt;/c&gt;: A support grant or correction over the app’s grant limit of the currency (per grant, or per staff member per UTC day); nothing changed, the message and limit, remaining say what is left</summary>
        GrantLimitExceeded,
        /// <summary>404 &lt;c&gt;not_found&lt;/c&gt;: No such route</summary>
        NotFound,
        /// <summary>404 &lt;c&gt;mission_not_found&lt;/c&gt;: The mission does not exist</summary>
        MissionNotFound,
        /// <summary>404 &lt;c&gt;balance_not_found&lt;/c&gt;: No balance for (userId, currency)</summary>
        BalanceNotFound,
        /// <summary>404 &lt;c&gt;campaign_not_found&lt;/c&gt;: The campaign does not exist</summary>
        CampaignNotFound,
        /// <summary>404 &lt;c&gt;user_not_found&lt;/c&gt;: The app has never seen the user (no event, token attributes, webhook user update or balance)</summary>
        UserNotFound,
        /// <summary>404 &lt;c&gt;app_not_found&lt;/c&gt;: The app does not exist</summary>
        AppNotFound,
        /// <summary>404 &lt;c&gt;draft_not_found&lt;/c&gt;: The app has no draft catalog</summary>
        DraftNotFound,
        /// <summary>404 &lt;c&gt;release_not_found&lt;/c&gt;: The app has no release of that number</summary>
        ReleaseNotFound,
        /// <summary>404 &lt;c&gt;endpoint_not_found&lt;/c&gt;: The app has no such outbound-webhook endpoint</summary>
        EndpointNotFound,
        /// <summary>404 &lt;c&gt;delivery_not_found&lt;/c&gt;: The endpoint has no such delivery</summary>
        DeliveryNotFound,
        /// <summary>405 &lt;c&gt;method_not_allowed&lt;/c&gt;: The route exists, the method does not (see Allow)</summary>
        MethodNotAllowed,
        /// <summary>409 &lt;c&gt;conflict&lt;/c&gt;: The resource exists already, or it changed since the version a write was based on</summary>
        Conflict,
        /// <summary>409 &lt;c&gt;claim_not_ready&lt;/c&gt;: No progress record, or its status is not completed</summary>
        ClaimNotReady,
        /// <summary>409 &lt;c&gt;budget_exhausted&lt;/c&gt;: The claim would take its campaign past the campaign’s budget of the reward’s currency (nothing changed; the message names the campaign)</summary>
        BudgetExhausted,
        /// <summary>409 &lt;c&gt;needs_acknowledgement&lt;/c&gt;: The draft (or the scheduled snapshot) has payout warnings: nothing was published or scheduled; `warnings` lists them, send acknowledgeWarnings: true to go ahead</summary>
        NeedsAcknowledgement,
        /// <summary>409 &lt;c&gt;approval_pending&lt;/c&gt;: The app has a publish waiting for approval: approve, reject or withdraw it first (nothing changed)</summary>
        ApprovalPending,
        /// <summary>409 &lt;c&gt;no_pending_approval&lt;/c&gt;: The app has no publish waiting for approval (it may have just been approved, rejected or withdrawn)</summary>
        NoPendingApproval,
        /// <summary>409 &lt;c&gt;approval_required&lt;/c&gt;: The app requires approval: the live catalog changes only through a publish of the draft that another editor approves; a direct write (PUT …/catalog, the per-entity routes) is refused, nothing written</summary>
        ApprovalRequired,
        /// <summary>409 &lt;c&gt;release_scheduled&lt;/c&gt;: With requireApproval, a publish is asked for while an approved release is scheduled: cancel the schedule first (nothing changed)</summary>
        ReleaseScheduled,
        /// <summary>409 &lt;c&gt;balance_limit&lt;/c&gt;: A grant or claim would take the balance past its currency’s maxBalance (nothing changed; the message names the currency and the limit)</summary>
        BalanceLimit,
        /// <summary>409 &lt;c&gt;insufficient_balance&lt;/c&gt;: A spend, or a staff correction, would take the balance below zero (nothing changed)</summary>
        InsufficientBalance,
        /// <summary>413 &lt;c&gt;payload_too_large&lt;/c&gt;: The body is over 64 KiB</summary>
        PayloadTooLarge,
        /// <summary>422 &lt;c&gt;idempotency_key_reused&lt;/c&gt;: The same idempotency key was used for a different request</summary>
        IdempotencyKeyReused,
        /// <summary>429 &lt;c&gt;rate_limited&lt;/c&gt;: A rate limit was hit; Retry-After and retryAfterMs say when to retry</summary>
        RateLimited,
        /// <summary>429 &lt;c&gt;too_many_streams&lt;/c&gt;: The user already holds SSE_MAX_STREAMS_PER_USER streams on this instance; Retry-After and retryAfterMs say when to retry</summary>
        TooManyStreams,
        /// <summary>500 &lt;c&gt;internal_error&lt;/c&gt;: Unexpected failure (quote X-Request-Id)</summary>
        InternalError,
        /// <summary>503 &lt;c&gt;unavailable&lt;/c&gt;: A dependency of the service is down; retry later</summary>
        Unavailable,
    }

    /// <summary>The wire names and HTTP statuses of the error codes.</summary>
    public static class ErrorCodes
    {
        /// <summary>The code of a body's <c>error</c> field (Unknown when not in the contract).</summary>
        public static ErrorCode Parse(string code)
        {
            switch (code)
            {
                case "validation_error": return ErrorCode.ValidationError;
                case "invalid_event": return ErrorCode.InvalidEvent;
                case "invalid_credentials": return ErrorCode.InvalidCredentials;
                case "unauthorized": return ErrorCode.Unauthorized;
                case "invalid_signature": return ErrorCode.InvalidSignature;
                case "user_mismatch": return ErrorCode.UserMismatch;
                case "forbidden": return ErrorCode.Forbidden;
                case "self_approval": return ErrorCode.SelfApproval;
                case "not_requester": return ErrorCode.NotRequester;
                case "grant_limit_exceeded": return ErrorCode.GrantLimitExceeded;
                case "not_found": return ErrorCode.NotFound;
                case "mission_not_found": return ErrorCode.MissionNotFound;
                case "balance_not_found": return ErrorCode.BalanceNotFound;
                case "campaign_not_found": return ErrorCode.CampaignNotFound;
                case "user_not_found": return ErrorCode.UserNotFound;
                case "app_not_found": return ErrorCode.AppNotFound;
                case "draft_not_found": return ErrorCode.DraftNotFound;
                case "release_not_found": return ErrorCode.ReleaseNotFound;
                case "endpoint_not_found": return ErrorCode.EndpointNotFound;
                case "delivery_not_found": return ErrorCode.DeliveryNotFound;
                case "method_not_allowed": return ErrorCode.MethodNotAllowed;
                case "conflict": return ErrorCode.Conflict;
                case "claim_not_ready": return ErrorCode.ClaimNotReady;
                case "budget_exhausted": return ErrorCode.BudgetExhausted;
                case "needs_acknowledgement": return ErrorCode.NeedsAcknowledgement;
                case "approval_pending": return ErrorCode.ApprovalPending;
                case "no_pending_approval": return ErrorCode.NoPendingApproval;
                case "approval_required": return ErrorCode.ApprovalRequired;
                case "release_scheduled": return ErrorCode.ReleaseScheduled;
                case "balance_limit": return ErrorCode.BalanceLimit;
                case "insufficient_balance": return ErrorCode.InsufficientBalance;
                case "payload_too_large": return ErrorCode.PayloadTooLarge;
                case "idempotency_key_reused": return ErrorCode.IdempotencyKeyReused;
                case "rate_limited": return ErrorCode.RateLimited;
                case "too_many_streams": return ErrorCode.TooManyStreams;
                case "internal_error": return ErrorCode.InternalError;
                case "unavailable": return ErrorCode.Unavailable;
                default: return ErrorCode.Unknown;
            }
        }

        /// <summary>The wire name of a code (null for Unknown).</summary>
        public static string Wire(ErrorCode code)
        {
            switch (code)
            {
                case ErrorCode.ValidationError: return "validation_error";
                case ErrorCode.InvalidEvent: return "invalid_event";
                case ErrorCode.InvalidCredentials: return "invalid_credentials";
                case ErrorCode.Unauthorized: return "unauthorized";
                case ErrorCode.InvalidSignature: return "invalid_signature";
                case ErrorCode.UserMismatch: return "user_mismatch";
                case ErrorCode.Forbidden: return "forbidden";
                case ErrorCode.SelfApproval: return "self_approval";
                case ErrorCode.NotRequester: return "not_requester";
                case ErrorCode.GrantLimitExceeded: return "grant_limit_exceeded";
                case ErrorCode.NotFound: return "not_found";
                case ErrorCode.MissionNotFound: return "mission_not_found";
                case ErrorCode.BalanceNotFound: return "balance_not_found";
                case ErrorCode.CampaignNotFound: return "campaign_not_found";
                case ErrorCode.UserNotFound: return "user_not_found";
                case ErrorCode.AppNotFound: return "app_not_found";
                case ErrorCode.DraftNotFound: return "draft_not_found";
                case ErrorCode.ReleaseNotFound: return "release_not_found";
                case ErrorCode.EndpointNotFound: return "endpoint_not_found";
                case ErrorCode.DeliveryNotFound: return "delivery_not_found";
                case ErrorCode.MethodNotAllowed: return "method_not_allowed";
                case ErrorCode.Conflict: return "conflict";
                case ErrorCode.ClaimNotReady: return "claim_not_ready";
                case ErrorCode.BudgetExhausted: return "budget_exhausted";
                case ErrorCode.NeedsAcknowledgement: return "needs_acknowledgement";
                case ErrorCode.ApprovalPending: return "approval_pending";
                case ErrorCode.NoPendingApproval: return "no_pending_approval";
                case ErrorCode.ApprovalRequired: return "approval_required";
                case ErrorCode.ReleaseScheduled: return "release_scheduled";
                case ErrorCode.BalanceLimit: return "balance_limit";
                case ErrorCode.InsufficientBalance: return "insufficient_balance";
                case ErrorCode.PayloadTooLarge: return "payload_too_large";
                case ErrorCode.IdempotencyKeyReused: return "idempotency_key_reused";
                case ErrorCode.RateLimited: return "rate_limited";
                case ErrorCode.TooManyStreams: return "too_many_streams";
                case ErrorCode.InternalError: return "internal_error";
                case ErrorCode.Unavailable: return "unavailable";
                default: return null;
            }
        }

        /// <summary>The HTTP status the API answers with a code (0 for Unknown).</summary>
        public static int Status(ErrorCode code)
        {
            switch (code)
            {
                case ErrorCode.ValidationError: return 400;
                case ErrorCode.InvalidEvent: return 400;
                case ErrorCode.InvalidCredentials: return 401;
                case ErrorCode.Unauthorized: return 401;
                case ErrorCode.InvalidSignature: return 401;
                case ErrorCode.UserMismatch: return 403;
                case ErrorCode.Forbidden: return 403;
                case ErrorCode.SelfApproval: return 403;
                case ErrorCode.NotRequester: return 403;
                case ErrorCode.GrantLimitExceeded: return 403;
                case ErrorCode.NotFound: return 404;
                case ErrorCode.MissionNotFound: return 404;
                case ErrorCode.BalanceNotFound: return 404;
                case ErrorCode.CampaignNotFound: return 404;
                case ErrorCode.UserNotFound: return 404;
                case ErrorCode.AppNotFound: return 404;
                case ErrorCode.DraftNotFound: return 404;
                case ErrorCode.ReleaseNotFound: return 404;
                case ErrorCode.EndpointNotFound: return 404;
                case ErrorCode.DeliveryNotFound: return 404;
                case ErrorCode.MethodNotAllowed: return 405;
                case ErrorCode.Conflict: return 409;
                case ErrorCode.ClaimNotReady: return 409;
                case ErrorCode.BudgetExhausted: return 409;
                case ErrorCode.NeedsAcknowledgement: return 409;
                case ErrorCode.ApprovalPending: return 409;
                case ErrorCode.NoPendingApproval: return 409;
                case ErrorCode.ApprovalRequired: return 409;
                case ErrorCode.ReleaseScheduled: return 409;
                case ErrorCode.BalanceLimit: return 409;
                case ErrorCode.InsufficientBalance: return 409;
                case ErrorCode.PayloadTooLarge: return 413;
                case ErrorCode.IdempotencyKeyReused: return 422;
                case ErrorCode.RateLimited: return 429;
                case ErrorCode.TooManyStreams: return 429;
                case ErrorCode.InternalError: return 500;
                case ErrorCode.Unavailable: return 503;
                default: return 0;
            }
        }

        /// <summary>The typed exception of an error answer: by code, else the generic one of its status.</summary>
        internal static QuestlineException Create(int status, string code, string message, string requestId)
        {
            switch (Parse(code))
            {
                case ErrorCode.ValidationError: return new ValidationException(status, code, message, requestId);
                case ErrorCode.InvalidEvent: return new InvalidEventException(status, code, message, requestId);
                case ErrorCode.InvalidCredentials: return new InvalidCredentialsException(status, code, message, requestId);
                case ErrorCode.Unauthorized: return new UnauthorizedException(status, code, message, requestId);
                case ErrorCode.InvalidSignature: return new InvalidSignatureException(status, code, message, requestId);
                case ErrorCode.UserMismatch: return new UserMismatchException(status, code, message, requestId);
                case ErrorCode.Forbidden: return new ForbiddenException(status, code, message, requestId);
                case ErrorCode.SelfApproval: return new SelfApprovalException(status, code, message, requestId);
                case ErrorCode.NotRequester: return new NotRequesterException(status, code, message, requestId);
                case ErrorCode.GrantLimitExceeded: return new GrantLimitExceededException(status, code, message, requestId);
                case ErrorCode.NotFound: return new NotFoundException(status, code, message, requestId);
                case ErrorCode.MissionNotFound: return new MissionNotFoundException(status, code, message, requestId);
                case ErrorCode.BalanceNotFound: return new BalanceNotFoundException(status, code, message, requestId);
                case ErrorCode.CampaignNotFound: return new CampaignNotFoundException(status, code, message, requestId);
                case ErrorCode.UserNotFound: return new UserNotFoundException(status, code, message, requestId);
                case ErrorCode.AppNotFound: return new AppNotFoundException(status, code, message, requestId);
                case ErrorCode.DraftNotFound: return new DraftNotFoundException(status, code, message, requestId);
                case ErrorCode.ReleaseNotFound: return new ReleaseNotFoundException(status, code, message, requestId);
                case ErrorCode.EndpointNotFound: return new EndpointNotFoundException(status, code, message, requestId);
                case ErrorCode.DeliveryNotFound: return new DeliveryNotFoundException(status, code, message, requestId);
                case ErrorCode.MethodNotAllowed: return new MethodNotAllowedException(status, code, message, requestId);
                case ErrorCode.Conflict: return new ConflictException(status, code, message, requestId);
                case ErrorCode.ClaimNotReady: return new ClaimNotReadyException(status, code, message, requestId);
                case ErrorCode.BudgetExhausted: return new BudgetExhaustedException(status, code, message, requestId);
                case ErrorCode.NeedsAcknowledgement: return new NeedsAcknowledgementException(status, code, message, requestId);
                case ErrorCode.ApprovalPending: return new ApprovalPendingException(status, code, message, requestId);
                case ErrorCode.NoPendingApproval: return new NoPendingApprovalException(status, code, message, requestId);
                case ErrorCode.ApprovalRequired: return new ApprovalRequiredException(status, code, message, requestId);
                case ErrorCode.ReleaseScheduled: return new ReleaseScheduledException(status, code, message, requestId);
                case ErrorCode.BalanceLimit: return new BalanceLimitException(status, code, message, requestId);
                case ErrorCode.InsufficientBalance: return new InsufficientBalanceException(status, code, message, requestId);
                case ErrorCode.PayloadTooLarge: return new PayloadTooLargeException(status, code, message, requestId);
                case ErrorCode.IdempotencyKeyReused: return new IdempotencyKeyReusedException(status, code, message, requestId);
                case ErrorCode.InternalError: return new InternalServerException(status, code, message, requestId);
                case ErrorCode.Unavailable: return new ServiceUnavailableException(status, code, message, requestId);
            }
            switch (status)
            {
                case 400: return new ValidationException(status, code, message, requestId);
                case 403: return new ForbiddenException(status, code, message, requestId);
                case 404: return new NotFoundException(status, code, message, requestId);
                case 405: return new MethodNotAllowedException(status, code, message, requestId);
                case 409: return new ConflictException(status, code, message, requestId);
                case 413: return new PayloadTooLargeException(status, code, message, requestId);
                case 422: return new IdempotencyKeyReusedException(status, code, message, requestId);
                case 500: return new InternalServerException(status, code, message, requestId);
                case 503: return new ServiceUnavailableException(status, code, message, requestId);
                case 502:
                case 504: return new ServiceUnavailableException(status, code, message, requestId);
                default: return new QuestlineException(status, code, message, requestId);
            }
        }
    }

    /// <summary>400 &lt;c&gt;validation_error&lt;/c&gt;: A body, query or path fails validation (the message names the field)</summary>
    public class ValidationException : QuestlineException
    {
        public ValidationException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>400 &lt;c&gt;invalid_event&lt;/c&gt;: The POST /v1/events body fails validation (a timestamp outside the server clock’s bounds included)</summary>
    public class InvalidEventException : ValidationException
    {
        public InvalidEventException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>401 &lt;c&gt;invalid_credentials&lt;/c&gt;: Unknown app or wrong secret (the same answer for both)</summary>
    public class InvalidCredentialsException : QuestlineException
    {
        public InvalidCredentialsException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>401 &lt;c&gt;unauthorized&lt;/c&gt;: Missing, invalid, expired or revoked token</summary>
    public class UnauthorizedException : QuestlineException
    {
        public UnauthorizedException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>401 &lt;c&gt;invalid_signature&lt;/c&gt;: Webhook signature, app or timestamp rejected</summary>
    public class InvalidSignatureException : QuestlineException
    {
        public InvalidSignatureException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>403 &lt;c&gt;user_mismatch&lt;/c&gt;: The event userId differs from the token subject</summary>
    public class UserMismatchException : ForbiddenException
    {
        public UserMismatchException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>403 &lt;c&gt;forbidden&lt;/c&gt;: The caller may not do this</summary>
    public class ForbiddenException : QuestlineException
    {
        public ForbiddenException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>403 &lt;c&gt;self_approval&lt;/c&gt;: The staff member (or the admin API key) who asked to publish cannot approve it: another editor or admin must</summary>
    public class SelfApprovalException : ForbiddenException
    {
        public SelfApprovalException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>403 &lt;c&gt;not_requester&lt;/c&gt;: Only the staff member who asked for an approval can withdraw it; others reject it with a reason</summary>
    public class NotRequesterException : ForbiddenException
    {
        public NotRequesterException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>403 &lt;c&gt;grant_limit_exceeded&lt;/c&gt;: A support grant or correction over the app’s grant limit of the currency (per grant, or per staff member per UTC day); nothing changed, the message and limit, remaining say what is left</summary>
    public class GrantLimitExceededException : ForbiddenException
    {
        public GrantLimitExceededException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>404 &lt;c&gt;not_found&lt;/c&gt;: No such route</summary>
    public class NotFoundException : QuestlineException
    {
        public NotFoundException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>404 &lt;c&gt;mission_not_found&lt;/c&gt;: The mission does not exist</summary>
    public class MissionNotFoundException : NotFoundException
    {
        public MissionNotFoundException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>404 &lt;c&gt;balance_not_found&lt;/c&gt;: No balance for (userId, currency)</summary>
    public class BalanceNotFoundException : NotFoundException
    {
        public BalanceNotFoundException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>404 &lt;c&gt;campaign_not_found&lt;/c&gt;: The campaign does not exist</summary>
    public class CampaignNotFoundException : NotFoundException
    {
        public CampaignNotFoundException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>404 &lt;c&gt;user_not_found&lt;/c&gt;: The app has never seen the user (no event, token attributes, webhook user update or balance)</summary>
    public class UserNotFoundException : NotFoundException
    {
        public UserNotFoundException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>404 &lt;c&gt;app_not_found&lt;/c&gt;: The app does not exist</summary>
    public class AppNotFoundException : NotFoundException
    {
        public AppNotFoundException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>404 &lt;c&gt;draft_not_found&lt;/c&gt;: The app has no draft catalog</summary>
    public class DraftNotFoundException : NotFoundException
    {
        public DraftNotFoundException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>404 &lt;c&gt;release_not_found&lt;/c&gt;: The app has no release of that number</summary>
    public class ReleaseNotFoundException : NotFoundException
    {
        public ReleaseNotFoundException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>404 &lt;c&gt;endpoint_not_found&lt;/c&gt;: The app has no such outbound-webhook endpoint</summary>
    public class EndpointNotFoundException : NotFoundException
    {
        public EndpointNotFoundException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>404 &lt;c&gt;delivery_not_found&lt;/c&gt;: The endpoint has no such delivery</summary>
    public class DeliveryNotFoundException : NotFoundException
    {
        public DeliveryNotFoundException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>405 &lt;c&gt;method_not_allowed&lt;/c&gt;: The route exists, the method does not (see Allow)</summary>
    public class MethodNotAllowedException : QuestlineException
    {
        public MethodNotAllowedException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>409 &lt;c&gt;conflict&lt;/c&gt;: The resource exists already, or it changed since the version a write was based on</summary>
    public class ConflictException : QuestlineException
    {
        public ConflictException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>409 &lt;c&gt;claim_not_ready&lt;/c&gt;: No progress record, or its status is not completed</summary>
    public class ClaimNotReadyException : ConflictException
    {
        public ClaimNotReadyException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>409 &lt;c&gt;budget_exhausted&lt;/c&gt;: The claim would take its campaign past the campaign’s budget of the reward’s currency (nothing changed; the message names the campaign)</summary>
    public class BudgetExhaustedException : ConflictException
    {
        public BudgetExhaustedException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>409 &lt;c&gt;needs_acknowledgement&lt;/c&gt;: The draft (or the scheduled snapshot) has payout warnings: nothing was published or scheduled; `warnings` lists them, send acknowledgeWarnings: true to go ahead</summary>
    public class NeedsAcknowledgementException : ConflictException
    {
        public NeedsAcknowledgementException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>409 &lt;c&gt;approval_pending&lt;/c&gt;: The app has a publish waiting for approval: approve, reject or withdraw it first (nothing changed)</summary>
    public class ApprovalPendingException : ConflictException
    {
        public ApprovalPendingException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>409 &lt;c&gt;no_pending_approval&lt;/c&gt;: The app has no publish waiting for approval (it may have just been approved, rejected or withdrawn)</summary>
    public class NoPendingApprovalException : ConflictException
    {
        public NoPendingApprovalException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>409 &lt;c&gt;approval_required&lt;/c&gt;: The app requires approval: the live catalog changes only through a publish of the draft that another editor approves; a direct write (PUT …/catalog, the per-entity routes) is refused, nothing written</summary>
    public class ApprovalRequiredException : ConflictException
    {
        public ApprovalRequiredException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>409 &lt;c&gt;release_scheduled&lt;/c&gt;: With requireApproval, a publish is asked for while an approved release is scheduled: cancel the schedule first (nothing changed)</summary>
    public class ReleaseScheduledException : ConflictException
    {
        public ReleaseScheduledException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>409 &lt;c&gt;balance_limit&lt;/c&gt;: A grant or claim would take the balance past its currency’s maxBalance (nothing changed; the message names the currency and the limit)</summary>
    public class BalanceLimitException : ConflictException
    {
        public BalanceLimitException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>409 &lt;c&gt;insufficient_balance&lt;/c&gt;: A spend, or a staff correction, would take the balance below zero (nothing changed)</summary>
    public class InsufficientBalanceException : ConflictException
    {
        public InsufficientBalanceException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>413 &lt;c&gt;payload_too_large&lt;/c&gt;: The body is over 64 KiB</summary>
    public class PayloadTooLargeException : QuestlineException
    {
        public PayloadTooLargeException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>422 &lt;c&gt;idempotency_key_reused&lt;/c&gt;: The same idempotency key was used for a different request</summary>
    public class IdempotencyKeyReusedException : QuestlineException
    {
        public IdempotencyKeyReusedException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>500 &lt;c&gt;internal_error&lt;/c&gt;: Unexpected failure (quote X-Request-Id)</summary>
    public class InternalServerException : QuestlineException
    {
        public InternalServerException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }

    /// <summary>503 &lt;c&gt;unavailable&lt;/c&gt;: A dependency of the service is down; retry later</summary>
    public class ServiceUnavailableException : QuestlineException
    {
        public ServiceUnavailableException(int status, string code, string message, string requestId) : base(status, code, message, requestId) { }
    }
}

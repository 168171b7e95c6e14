// The words of the deployment reset, shared by the dialog (JavaScript) and the confirmation page
// (without it).
export const RESET_CONFIRM =
  "Reset this deployment? Its containers are replaced by fresh ones and the fault is set up again (with new values): whatever you changed is lost and open shells close. The timer and the ssh command stay the same. A deployment can be reset at most 3 times.";
export const RESET_FAILED = "Failed to reset the deployment";

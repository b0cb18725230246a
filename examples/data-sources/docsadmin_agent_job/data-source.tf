variable "agent_job_id" {
  type        = string
  description = "ID of an agent job, as returned when the job was created."
}

# Wait for the agent to finish and expose the pull request it opened.
data "docsadmin_agent_job" "edit" {
  id   = var.agent_job_id
  wait = true

  timeouts = {
    read = "30m"
  }
}

output "pull_request" {
  value = data.docsadmin_agent_job.edit.pr_link
}

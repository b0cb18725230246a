package s3test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sts"
)

// ReadOnlyCredentials returns credentials that may list and read the
// bucket but not write it: MinIO's STS AssumeRole with a read-only session
// policy, as a cloud role without s3:PutObject would be. No admin API and
// no extra dependency are needed.
func (b *Bucket) ReadOnlyCredentials(t testing.TB) aws.Credentials {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := sts.New(sts.Options{Region: b.Region, BaseEndpoint: aws.String(b.Endpoint), Credentials: b.Credentials()})
	out, err := client.AssumeRole(ctx, &sts.AssumeRoleInput{
		RoleArn:         aws.String("arn:xxx:xxx:xxx:xxxx"), // MinIO ignores it
		RoleSessionName: aws.String("read-only"),
		Policy: aws.String(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow",` +
			`"Action":["s3:ListBucket","s3:GetObject"],"Resource":["arn:aws:s3:::` + b.Name + `","arn:aws:s3:::` + b.Name + `/*"]}]}`),
	})
	if err != nil {
		t.Fatalf("s3test: assume a read-only role: %v", err)
	}
	c := out.Credentials
	return aws.Credentials{AccessKeyID: *c.AccessKeyId, SecretAccessKey: *c.SecretAccessKey, SessionToken: *c.SessionToken}
}

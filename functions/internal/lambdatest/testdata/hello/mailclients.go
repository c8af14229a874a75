//go:build hello_notify || hello_sweep || hello_sweep_reads || hello_sweep_read

package main

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
)

// mailClients are the SDK clients of the functions that send mail
// (notify, sweep): the table's, SES v2's and the keys' SSM client.
func mailClients() (*dynamodb.Client, *sesv2.Client, *ssm.Client) {
	cfg := loadAWS()
	return dynamodb.NewFromConfig(cfg), sesv2.NewFromConfig(cfg), ssm.NewFromConfig(cfg)
}

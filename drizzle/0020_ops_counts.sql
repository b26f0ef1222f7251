CREATE TABLE "ops_counts" (
	"minute" timestamp with time zone NOT NULL,
	"name" text NOT NULL,
	"label" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "ops_counts_minute_name_label_pk" PRIMARY KEY("minute","name","label")
);
